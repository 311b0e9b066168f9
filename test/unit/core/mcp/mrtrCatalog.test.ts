/**
 * MRTR (protocol 2026-07-28) beyond tools/call: a modern server that answers `prompts/get` and
 * `resources/read` with `input_required`, and a `tools/call` that asks by an MRTR URL elicitation
 * (2026-07-28's form of "open this page"; -32042 is 2025-11-25 only). Each input request goes
 * through the host's one decision path (trust, role, `mcpHost.elicitation`, the person, one audit
 * record), reached through the host's own prompt and resource paths (host.catalog). Against the
 * modern-only fixture with FIXTURE_ASKING_CATALOG=1, over stdio and Streamable HTTP.
 */
import * as assert from 'node:assert/strict';
import type { HostSettings, ServerSettings } from '../../../../src/core/settings/hostSettings';
import { readFixtureLog, startHttpFixture, type HttpFixture } from '../../../fixtures/fixtureServers';
import { role, settings, stateKind, useTestEnv, type Any } from '../helpers';
import { requestPorts, requestRecords, ScriptedPrompter } from '../requests/requestKit';

const VAULT = 'modern://vault';
const ASKING = { FIXTURE_ASKING_CATALOG: '1' };

for (const kind of ['stdio', 'http'] as const) {
  describe(`MRTR on prompts/get, resources/read and URL elicitation through the host (modern fixture over ${kind})`, function () {
    this.timeout(60_000); // a loaded 2-core machine starts a fixture in seconds
    const fixtures: HttpFixture[] = [];
    afterEach(async () => {
      await Promise.allSettled(fixtures.splice(0).map((f) => f.close()));
    });
    const env = useTestEnv();

    async function modern(): Promise<{ server: ServerSettings; log: string }> {
      if (kind === 'stdio') {
        const server = env.stdio('modern', 'modern/server', { env: ASKING, connectTimeoutMs: 20_000 });
        return { server, log: env.logOf('modern') };
      }
      const log = env.file('modern.jsonl');
      const fixture = await startHttpFixture({ script: 'modern/server', args: ['--http'], env: { FIXTURE_LOG: log, ...ASKING } });
      fixtures.push(fixture);
      return { server: { ...env.remote('modern', fixture.url), connectTimeoutMs: 20_000 }, log };
    }

    async function host(kit: ReturnType<typeof requestPorts>, partial: Partial<HostSettings> = {}) {
      const { server, log } = await modern();
      const h = await env.started({ settings: settings({ servers: [server], autoApprove: ['*/*'], ...partial }), workspaceFolder: env.dir, ...kit.options });
      assert.equal(stateKind(h, 'modern'), 'connected', h.log.text());
      return { h, log };
    }

    const handled = (log: string, what: string) => readFixtureLog(log).filter((e) => e.event === 'handled' && e.tool === what);
    const elicitations = (kit: ReturnType<typeof requestPorts>) => requestRecords(kit.audit, 'elicitation').map((r) => [r.outcome, r.decidedBy]);
    const useRecord = (kit: ReturnType<typeof requestPorts>, k: 'prompt' | 'resource') => kit.audit.records.find((r: Any) => r.kind === k) as Any;
    const refusing: Partial<HostSettings> = { elicitation: { servers: ['someone-else'], roles: {} } };

    it('prompts/get asks: the person answers in the host prompter, one audit record, the server gets the answer on a retry', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { name: 'Ada' } })) });
      const { h, log } = await host(kit);
      const r = await h.catalog.getPrompt({ server: 'modern', name: 'greeting', args: { tone: 'warm' } });
      assert.equal(r.outcome, 'ok', r.text);
      assert.deepEqual(r.messages, [{ role: 'user', content: { type: 'text', text: 'Greet Ada in a warm tone' } }]);
      assert.equal(kit.prompter.forms.length, 1);
      assert.equal(kit.prompter.forms[0].server, 'modern');
      assert.equal(kit.prompter.forms[0].message, 'Whom should the greeting address?');
      assert.deepEqual(elicitations(kit), [['accepted', 'user']]);
      assert.deepEqual(requestRecords(kit.audit, 'elicitation')[0].answer, { name: 'Ada' });
      assert.deepEqual(
        handled(log, 'prompt:greeting').map((e) => e.retry),
        [false, true],
      );
      assert.equal(useRecord(kit, 'prompt')?.outcome, 'ok');
    });

    it('prompts/get asks and the person declines: the server hears the decline', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'decline' })) });
      const { h } = await host(kit);
      const r = await h.catalog.getPrompt({ server: 'modern', name: 'greeting' });
      assert.equal(r.outcome, 'ok', r.text);
      assert.deepEqual(r.messages[0].content, { type: 'text', text: 'Greet nobody (decline)' });
      assert.deepEqual(elicitations(kit), [['declined', 'user']]);
    });

    it('prompts/get asks a server mcpHost.elicitation does not allow: declined by policy, the person never asked', async () => {
      const kit = requestPorts();
      const { h } = await host(kit, refusing);
      const r = await h.catalog.getPrompt({ server: 'modern', name: 'greeting' });
      assert.deepEqual(r.messages[0].content, { type: 'text', text: 'Greet nobody (decline)' });
      assert.equal(kit.prompter.forms.length, 0);
      assert.deepEqual(elicitations(kit), [['denied', 'policy']]);
      assert.match(requestRecords(kit.audit, 'elicitation')[0].reason ?? '', /^mcpHost\.elicitation does not allow server "modern"$/);
    });

    it('resources/read asks: accepted in the host prompter, audited; declined: the server keeps it closed', async () => {
      const kit = requestPorts({ prompter: new ScriptedPrompter(() => ({ action: 'accept', content: { confirm: true } })) });
      const { h, log } = await host(kit);
      const r = await h.catalog.readResource({ server: 'modern', uri: VAULT });
      assert.equal(r.outcome, 'ok', r.text);
      assert.deepEqual(r.contents, [{ uri: VAULT, mimeType: 'text/plain', text: 'vault opened' }]);
      assert.equal(kit.prompter.forms[0].message, 'Open the vault?');
      assert.deepEqual(elicitations(kit), [['accepted', 'user']]);
      assert.deepEqual(
        handled(log, 'resource:vault').map((e) => e.retry),
        [false, true],
      );
      assert.equal(useRecord(kit, 'resource')?.outcome, 'ok');

      kit.prompter.form = () => ({ action: 'decline' });
      const declined = await h.catalog.readResource({ server: 'modern', uri: VAULT });
      assert.equal((declined.contents[0] as Any).text, 'vault kept closed (decline)');
      assert.deepEqual(elicitations(kit), [
        ['accepted', 'user'],
        ['declined', 'user'],
      ]);
    });

    it('resources/read asks under a role whose elicitation list is empty: refused by policy without asking', async () => {
      const kit = requestPorts();
      const { h } = await host(kit, { roles: [role('locked', { resources: ['modern/*'] })], activeRole: 'locked', elicitation: { servers: ['*'], roles: { locked: [] } } });
      const r = await h.catalog.readResource({ server: 'modern', uri: VAULT });
      assert.equal((r.contents[0] as Any).text, 'vault kept closed (decline)');
      assert.equal(kit.prompter.forms.length, 0);
      assert.deepEqual(elicitations(kit), [['denied', 'policy']]);
      assert.match(requestRecords(kit.audit, 'elicitation')[0].reason ?? '', /\(role "locked"\)$/);
    });

    it('an MRTR URL elicitation: the person sees the message and the site; opened only after accepting; declined or refused: nothing opened', async () => {
      const kit = requestPorts();
      const { h } = await host(kit);
      const ok = await h.call({ name: 'modern__link_account' });
      assert.equal(ok.modelText, 'linked');
      assert.equal(kit.prompter.urls[0].message, 'Link your fixture account');
      assert.equal(kit.prompter.urls[0].origin, 'https://example.org');
      assert.deepEqual(kit.prompter.opened, ['https://example.org/link?account=modern']);

      kit.prompter.url = () => ({ action: 'decline' });
      const declined = await h.call({ name: 'modern__link_account' });
      assert.equal(declined.modelText, 'not linked: decline');
      assert.equal(kit.prompter.opened.length, 1);
      assert.deepEqual(elicitations(kit), [
        ['accepted', 'user'],
        ['declined', 'user'],
      ]);
    });

    it('an MRTR URL elicitation mcpHost.elicitation refuses: declined without asking', async () => {
      const kit = requestPorts();
      const { h } = await host(kit, refusing);
      const r = await h.call({ name: 'modern__link_account' });
      assert.equal(r.modelText, 'not linked: decline');
      assert.equal(kit.prompter.urls.length, 0);
      assert.deepEqual(kit.prompter.opened, []);
      assert.deepEqual(elicitations(kit), [['denied', 'policy']]);
    });
  });
}
