/**
 * MRTR (protocol 2026-07-28, issue 27 item 3): a modern server asks for input by answering
 * `tools/call` with `input_required`; the SDK fulfils each input request through the handlers the
 * host installed, so every one goes through the host's one decision path (trust, role,
 * `mcpHost.elicitation` / `mcpHost.sampling`, the person, one audit record). Against the modern-only
 * fixture (test/fixtures/servers/modern) over stdio and Streamable HTTP, through the whole host.
 */
import * as assert from 'node:assert/strict';
import type { HostSettings, ServerSettings } from '../../../../src/core/settings/hostSettings';
import { Client, type Progress } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isRoundProgress } from '../../../../src/core/mcp/call/toolCall';
import { MRTR_MAX_ROUNDS } from '../../../../src/core/mcp/openClient';
import { fixturePath, nodeEnv, readFixtureLog, startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { role, settings, stateKind, useTestEnv, type Any } from '../helpers';
import { requestPorts, requestRecords, ScriptedPrompter, ScriptedSampler } from '../requests/requestKit';

for (const kind of ['stdio', 'http'] as const) {
  describe(`MRTR through the host's decision path (modern fixture over ${kind})`, function () {
    this.timeout(60_000); // a loaded 2-core machine starts a fixture in seconds
    // Registered before useTestEnv's, so the fixtures are gone when it checks that no child is left.
    const fixtures: HttpFixture[] = [];
    afterEach(async () => {
      await Promise.allSettled(fixtures.splice(0).map((f) => f.close()));
    });
    const env = useTestEnv();

    /** The modern fixture as the server "modern", with its FIXTURE_LOG. */
    async function modern(extraEnv: Record<string, string> = {}): Promise<{ server: ServerSettings; log: string }> {
      if (kind === 'stdio') {
        const server = env.stdio('modern', 'modern/server', { env: extraEnv, connectTimeoutMs: 20_000 });
        return { server, log: env.logOf('modern') };
      }
      const log = env.file('modern.jsonl');
      const fixture = await startHttpFixture({ script: 'modern/server', args: ['--http'], env: { FIXTURE_LOG: log, FIXTURE_LOG_REQUESTS: '1', ...extraEnv } });
      fixtures.push(fixture);
      return { server: { ...env.remote('modern', fixture.url), connectTimeoutMs: 20_000 }, log };
    }

    async function host(kit: ReturnType<typeof requestPorts>, partial: Partial<HostSettings> = {}, extraEnv: Record<string, string> = {}) {
      const { server, log } = await modern(extraEnv);
      const h = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'], ...partial }), workspaceFolder: env.dir, ...kit.options });
      assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
      return { h, log };
    }

    const handled = (log: string, tool: string) => readFixtureLog(log).filter((e) => e.event === 'handled' && e.tool === tool);

    it('confirm_action: the person accepts in the host prompter; one audit record; the server gets the answer on a retry', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { confirm: true } })) });
      const { h, log } = await host(kit);
      const r = await h.call({ name: 'modern__confirm_action', args: { action: 'deploy' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'confirmed: deploy');
      assert.equal(kit.prompter.forms.length, 1);
      assert.equal(kit.prompter.forms[0].message, 'Allow "deploy"?');
      assert.equal(kit.prompter.forms[0].server, 'modern');
      assert.deepEqual(kit.prompter.forms[0].duringCall, ['confirm_action'], 'asked as part of the call in flight');
      const records = requestRecords(kit.audit, 'elicitation');
      assert.equal(records.length, 1, 'one audit record per input request');
      assert.equal(records[0].outcome, 'accepted');
      assert.equal(records[0].decidedBy, 'user');
      assert.deepEqual(records[0].duringCall, ['confirm_action']);
      assert.deepEqual(
        handled(log, 'confirm_action').map((e) => e.retry),
        [false, true],
      );
    });

    it('confirm_action: the person declines; the server hears the decline', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'decline' })) });
      const { h } = await host(kit);
      const r = await h.call({ name: 'modern__confirm_action', args: { action: 'drop table' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'declined: drop table');
      assert.equal(requestRecords(kit.audit, 'elicitation')[0].outcome, 'declined');
    });

    /** confirm_action under `partial`: declined by the policy (the server hears a decline), the person never asked. */
    async function refusedByPolicy(partial: Partial<HostSettings>, reason: RegExp) {
      const kit = requestPorts();
      const { h } = await host(kit, partial);
      const r = await h.call({ name: 'modern__confirm_action', args: { action: 'deploy' } });
      assert.equal(r.modelText, 'declined: deploy');
      assert.equal(kit.prompter.forms.length, 0);
      const records = requestRecords(kit.audit, 'elicitation');
      assert.deepEqual(
        records.map((x) => [x.outcome, x.decidedBy]),
        [['denied', 'policy']],
      );
      assert.match(records[0].reason ?? '', reason);
    }

    it('confirm_action: mcpHost.elicitation does not allow the server: declined by policy, the person is never asked', async () => {
      await refusedByPolicy({ elicitation: { servers: ['someone-else'], roles: {} } }, /^mcpHost\.elicitation does not allow server "modern"$/);
    });

    it('confirm_action under a role whose elicitation list is empty: refused by policy', async () => {
      await refusedByPolicy({ roles: [role('locked')], activeRole: 'locked', elicitation: { servers: ['*'], roles: { locked: [] } } }, /^mcpHost\.elicitation does not allow server "modern" \(role "locked"\)$/);
    });

    it('summarize: sampling allowed by mcpHost.sampling reaches the sampler, its text reaches the server', async () => {
      const kit = requestPorts({ sampler: new ScriptedSampler(() => ({ action: 'accept', answer: { model: 'scripted-model', text: 'short' } })) });
      const { h } = await host(kit, { sampling: { servers: ['modern'], roles: {} } });
      const r = await h.call({ name: 'modern__summarize', args: { text: 'a long text' } });
      assert.equal(r.outcome, 'ok', r.modelText);
      assert.equal(r.modelText, 'summary: short');
      assert.equal(kit.sampler.questions.length, 1);
      assert.match(JSON.stringify(kit.sampler.questions[0].messages), /Summarize in one line: a long text/);
      const [record] = requestRecords(kit.audit, 'sampling');
      assert.equal(record.outcome, 'accepted');
      assert.deepEqual(record.duringCall, ['summarize']);
    });

    it('summarize: sampling off (the default) refuses without asking; the call fails with a clear text', async () => {
      const kit = requestPorts();
      const { h } = await host(kit);
      const r = await h.call({ name: 'modern__summarize', args: { text: 'a long text' } });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.match(r.modelText, /Sampling is not allowed: mcpHost\.sampling does not allow server "modern"/);
      assert.equal(kit.sampler.questions.length, 0);
      const [record] = requestRecords(kit.audit, 'sampling');
      assert.equal(record.outcome, 'denied');
      assert.equal(record.decidedBy, 'policy');
    });

    it(`a server that keeps asking ends after ${MRTR_MAX_ROUNDS} rounds with a clear error; its requestState is never logged in clear`, async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { confirm: true } })) });
      const { h, log } = await host(kit, {}, { FIXTURE_ASK_FOREVER: '1' });
      const r = await h.call({ name: 'modern__ask_forever' });
      assert.equal(r.outcome, 'error', r.modelText);
      assert.match(r.modelText, new RegExp(`server "modern" still asked for input after ${MRTR_MAX_ROUNDS} rounds`));
      assert.equal(kit.prompter.forms.length, MRTR_MAX_ROUNDS, 'every round was asked through the host');
      assert.equal(requestRecords(kit.audit, 'elicitation').length, MRTR_MAX_ROUNDS, 'one audit record per input request');
      const states = readFixtureLog(log)
        .filter((e) => e.event === 'requestState')
        .map((e) => e.state as string);
      assert.ok(states.length >= MRTR_MAX_ROUNDS, `the fixture minted ${states.length} states`);
      // What the host writes: the model's and the person's text, the audit records (the file sink and the
      // telemetry spans are made from them), and every log line (the output channel, --verbose stderr).
      const written = [r.modelText, JSON.stringify(r.parts), JSON.stringify(kit.audit.records), h.log.text()].join('\n');
      for (const s of states) assert.ok(!written.includes(s), 'a requestState appears in what the host wrote');
    });
  });
}

describe('MRTR: the call clock', function () {
  this.timeout(60_000);
  const env = useTestEnv();

  it('stops while the person answers: a slow answer longer than the timeout does not time the call out', async () => {
    let release!: () => void;
    const answered = new Promise<void>((r) => (release = r));
    const kit = requestPorts({
      prompter: new ScriptedPrompter(async () => {
        await answered;
        return { action: 'accept', content: { confirm: true } };
      }),
    });
    const server = { ...env.stdio('modern', 'modern/server', { connectTimeoutMs: 20_000 }), timeoutMs: 1500 };
    const h = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }), ...kit.options });
    const call = h.call({ name: 'modern__confirm_action', args: { action: 'wait' } });
    // The person takes longer than the call's 1.5 s timeout: the clock is paused meanwhile.
    await new Promise((r) => setTimeout(r, 3000));
    release();
    const r = await call;
    assert.equal(r.outcome, 'ok', r.modelText);
    assert.equal(r.modelText, 'confirmed: wait');
  });

  it('Stop while the person is asked cancels the whole call (no retry reaches the server)', async () => {
    const kit = requestPorts({ prompter: new ScriptedPrompter((_q, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('withdrawn')), { once: true }))) });
    const server = env.stdio('modern', 'modern/server', { connectTimeoutMs: 20_000 });
    const h = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'] }), ...kit.options });
    const stop = new AbortController();
    const call = h.call({ name: 'modern__confirm_action', args: { action: 'stop me' }, signal: stop.signal } as Any);
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (kit.prompter.forms.length) {
          clearInterval(t);
          resolve();
        }
      }, 10);
    });
    stop.abort();
    const r = await call;
    assert.equal(r.outcome, 'cancelled', r.modelText);
    const [record] = requestRecords(kit.audit, 'elicitation');
    assert.equal(record.outcome, 'cancelled');
    assert.deepEqual(
      env.events('modern').filter((e: Any) => e.event === 'handled' && e.tool === 'confirm_action').map((e: Any) => e.retry),
      [false],
      'no retry after Stop',
    );
  });
});

describe('MRTR: what the host relies on from SDK v2', function () {
  this.timeout(60_000);

  it("reports each round as progress in the words isRoundProgress knows, and stops after maxRounds with the rounds in its data", async () => {
    const client = new Client({ name: 'contract', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' }, inputRequired: { maxRounds: 2 } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixturePath('modern/server')], env: { ...nodeEnv(), FIXTURE_ASK_FOREVER: '1' } }));
    try {
      const progress: Progress[] = [];
      const confirmed = await client.callTool({ name: 'confirm_action', arguments: { action: 'x' } }, { onprogress: (p) => progress.push(p) });
      assert.deepEqual((confirmed as Any).content, [{ type: 'text', text: 'confirmed: x' }]);
      assert.ok(progress.length >= 1, 'the SDK reports the round');
      for (const p of progress) assert.ok(isRoundProgress(p), JSON.stringify(p));
      await assert.rejects(client.callTool({ name: 'ask_forever', arguments: {} }), (e: Any) => e.code === 'INPUT_REQUIRED_ROUNDS_EXCEEDED' && e.data?.rounds === 2);
    } finally {
      await client.close();
    }
  });
});
