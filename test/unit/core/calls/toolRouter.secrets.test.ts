/**
 * Secret hygiene as one rule, checked at every exit of the core: a resolved ${secret:} or an
 * argument value redacted by key never appears in a call result (content, structuredContent,
 * parts, model text), the audit (file, sinks, onDidRecord), the log, or the snapshot (tool
 * definitions) — masked as [secret] / [redacted] even when a server echoes it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import type { AuditRecord } from '../../../../src/core/audit/auditRecord';
import { InMemoryServers } from '../../../fixtures/inMemoryServers';
import { endOfTurn, mapSecrets, settings, useTestEnv } from '../helpers';

const SECRET = 'sekret-value-123';
const TOKEN = 'tok-value-999';

/** Echoes `text` everywhere a result can carry it; its description leaks the secret too. */
function echoing(): McpServer {
  const server = new McpServer({ name: 'echoing', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool(
    'echo',
    { description: `Echoes. (configured with key ${SECRET})`, inputSchema: z.object({ text: z.string(), token: z.string().optional() }) },
    async ({ text }, ctx) => {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'warning', data: `echoing ${text}` } });
      return {
        content: [
          { type: 'text', text },
          { type: 'resource', resource: { uri: `mem://x?k=${encodeURIComponent(text)}`, text: `resource ${text}` } },
        ],
        structuredContent: { echo: text, nested: [{ deep: JSON.stringify({ text }) }] },
      };
    },
  );
  server.registerTool('fail', { description: 'Fails', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
    throw new Error(`failed with ${text}`);
  });
  return server;
}

describe('McpHost: secrets never leave through any exit', function () {
  this.timeout(20_000);
  const env = useTestEnv();

  it('a ${secret:} and a key-redacted argument echoed by a server are masked in results, audit, log and snapshot', async () => {
    const factory = new InMemoryServers({ echoing });
    const sink = new MemorySink();
    const audit = env.file('audit.jsonl');
    const host = await env.started({
      settings: settings({ servers: [factory.settings('echoing', { env: { KEY: '${secret:KEY}' } })], autoApprove: ['*/*'] }),
      transports: factory,
      secrets: mapSecrets({ KEY: SECRET }),
      auditSinks: [sink],
      auditPathOverride: audit,
    });
    const recorded: AuditRecord[] = [];
    host.onDidRecord((r) => recorded.push(r));

    const results = [
      await host.call({ name: 'echoing__echo', args: { text: `the key is ${SECRET}` } }),
      await host.call({ name: 'echoing__echo', args: { text: `my token ${TOKEN}`, token: TOKEN } }),
      // Remembered: the token value stays masked in later calls that do not name it.
      await host.call({ name: 'echoing__echo', args: { text: `again ${TOKEN}` } }),
      await host.call({ name: 'echoing__fail', args: { text: SECRET } }),
    ];
    assert.deepEqual(results.map((r) => r.outcome), ['ok', 'ok', 'ok', 'isError']);
    assert.equal(results[0].modelText.split('\n')[0], 'the key is [secret]');
    assert.equal(results[1].modelText.split('\n')[0], 'my token [redacted]');
    assert.equal(results[2].modelText.split('\n')[0], 'again [redacted]');
    await endOfTurn();

    const everything = JSON.stringify({
      results,
      sink: sink.records,
      recorded,
      file: fs.readFileSync(audit, 'utf8'),
      log: host.log.text(),
      tools: host.snapshot().exposed.map((t) => t.entry.tool),
    });
    for (const leaked of [SECRET, TOKEN, encodeURIComponent(SECRET)]) assert.ok(!everything.includes(leaked), `"${leaked}" leaked`);
    assert.match(host.log.text(), /echoing the key is \[secret\]/, 'the server log line is there, masked');
    assert.match(host.snapshot().exposed[0].entry.tool.description ?? '', /configured with key \[secret\]/);
  });
});
