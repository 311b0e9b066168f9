/** What the task tests of both eras (taskToolCall, modernTasks) do alike. */
import * as assert from 'node:assert/strict';
import type { ToolCallResult } from '../../../../src/core/calls/toolRouter';
import type { McpHost } from '../../../../src/core/host/mcpHost';
import type { CallProgress } from '../../../../src/core/mcp/callProgress';
import { waitFor } from '../helpers';

/** Calls `name` (no arguments) and presses Stop once the call reported `message` as progress: its result. */
export async function stopOnceReported(host: McpHost, name: string, message: string): Promise<ToolCallResult> {
  const ac = new AbortController();
  const seen: CallProgress[] = [];
  const pending = host.call({ name, args: {}, signal: ac.signal, onProgress: (p) => seen.push(p) });
  await waitFor(`${name} to report "${message}"`, () => seen.some((p) => p.message === message));
  ac.abort();
  return pending;
}

/**
 * Calls the fixtures' `tasks__research` (3 stages of 150 ms; both eras' task fixtures have it) and
 * checks it ends with its result and reported each stage as progress: what it reported.
 */
export async function researchInStages(host: McpHost): Promise<CallProgress[]> {
  const seen: CallProgress[] = [];
  const r = await host.call({ name: 'tasks__research', args: { steps: 3, stepMs: 150 }, onProgress: (p) => seen.push(p) });
  assert.equal(r.outcome, 'ok', r.modelText);
  assert.equal(r.modelText, 'researched 3 stages');
  const messages = seen.map((p) => p.message);
  for (const m of ['stage 1 of 3', 'stage 2 of 3', 'stage 3 of 3']) assert.ok(messages.includes(m), `${m} in ${JSON.stringify(seen)}`);
  return seen;
}
