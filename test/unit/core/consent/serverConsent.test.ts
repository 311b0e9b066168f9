/** Consent before a server starts, through a real host and in-process servers. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { createHash } from 'node:crypto';
import { MemoryConsentStore } from '../../../../src/core/consent/consentStore';
import { MemoryIdentityKey } from '../../../../src/core/consent/identityKey';
import type { ConsentAnswer, ConsentRequest } from '../../../../src/core/consent/serverConsent';
import { commandLine, identityHash } from '../../../../src/core/pinning/serverIdentity';
import { basicServer, InMemoryServers } from '../../../fixtures/inMemoryServers';
import { memoryHostOptions, settings, stateKind, useTestEnv, waitFor, type Any } from '../helpers';
import { requestPorts } from '../requests/requestKit';

class ScriptedPrompt {
  readonly asked: ConsentRequest[] = [];
  constructor(public answer: (r: ConsentRequest) => ConsentAnswer | Promise<ConsentAnswer> = () => 'allow') {}
  async ask(r: ConsentRequest): Promise<ConsentAnswer> {
    this.asked.push(r);
    return this.answer(r);
  }
}

describe('consent before a server starts', () => {
  const env = useTestEnv();
  const servers = () => new InMemoryServers({ a: () => basicServer('a'), b: () => basicServer('b') });

  const host = (o: { store: MemoryConsentStore; prompt: ScriptedPrompt; args?: string[]; trusted?: boolean; yes?: boolean; s?: InMemoryServers }) => {
    const s = o.s ?? servers();
    const sink = new MemorySink();
    const h = env.host({
      settings: settings({ servers: [s.settings('a', { args: o.args ?? ['--port', '1'], env: { TOKEN: 'secret-token-value' } }), s.settings('b')] }),
      consent: { store: o.store, prompt: o.prompt, via: 'editor' },
      auditSinks: [sink],
      trusted: o.trusted,
      assumeYes: o.yes,
      ...memoryHostOptions(s),
    });
    return Object.assign(h, { sink });
  };

  it('asks once per server with the exact command, remembers "allow", and audits it', async () => {
    const store = new MemoryConsentStore();
    const prompt = new ScriptedPrompt();
    const h = host({ store, prompt });
    await h.start();
    assert.deepEqual(prompt.asked.map((r) => r.server), ['a', 'b']);
    assert.equal(commandLine(prompt.asked[0].identity), 'in-memory --port 1');
    assert.deepEqual((prompt.asked[0].identity as Any).envKeys, ['TOKEN']);
    assert.ok(!JSON.stringify(prompt.asked).includes('secret-token-value'), 'env values are never shown or kept');
    assert.equal(stateKind(h, 'a'), 'connected');
    const rec = h.sink.records.filter((r: Any) => r.kind === 'consent') as Any[];
    assert.deepEqual(rec.map((r) => [r.server, r.decision, r.remembered, r.by.via, r.target]), [
      ['a', 'allow', true, 'editor', 'in-memory --port 1'],
      ['b', 'allow', true, 'editor', 'in-memory'],
    ]);
    await h.close();

    const again = new ScriptedPrompt(() => 'deny');
    const h2 = host({ store, prompt: again });
    await h2.start();
    assert.deepEqual(again.asked, [], 'allowed before: not asked again');
    assert.equal(stateKind(h2, 'a'), 'connected');
  });

  it('"deny" is kept: the server is not started (an error saying why), until a person starts it', async () => {
    const store = new MemoryConsentStore();
    const prompt = new ScriptedPrompt((r) => (r.server === 'a' ? 'deny' : 'allow'));
    const s = servers();
    const h = host({ store, prompt, s });
    await h.start();
    assert.equal(stateKind(h, 'a'), 'error');
    assert.match(h.snapshot().server('a')!.failure!, /not started: you did not allow this server to start: in-memory --port 1/);
    assert.equal(h.snapshot().server('a')!.consent, 'refused');
    assert.equal(s.startCount('a'), 0, 'the server was never started');
    assert.equal(stateKind(h, 'b'), 'connected');
    await h.close();

    const later = new ScriptedPrompt(() => 'allow');
    const h2 = host({ store, prompt: later, s });
    await h2.start();
    assert.equal(later.asked.length, 0, 'a kept "deny" is not asked again on its own');
    assert.match(h2.snapshot().server('a')!.failure!, /Start it to be asked again/);
    await h2.servers.startServer('a');
    assert.deepEqual(later.asked.map((r) => r.server), ['a'], 'a person starting it is asked again');
    assert.equal(stateKind(h2, 'a'), 'connected');
  });

  it('a changed command line asks again, showing what was allowed before', async () => {
    const store = new MemoryConsentStore();
    await host({ store, prompt: new ScriptedPrompt() }).start();
    const prompt = new ScriptedPrompt();
    const h = host({ store, prompt, args: ['--port', '2'] });
    await h.start();
    assert.deepEqual(prompt.asked.map((r) => r.server), ['a']);
    assert.equal(commandLine(prompt.asked[0].previous!), 'in-memory --port 1');
    assert.equal(commandLine(prompt.asked[0].identity), 'in-memory --port 2');
  });

  it('the question carries the roots the server will be given: its roots setting, the workspace folder, or none', async () => {
    const s = new InMemoryServers({ a: () => basicServer('a'), b: () => basicServer('b'), c: () => basicServer('c') });
    const prompt = new ScriptedPrompt();
    const data = path.join(env.dir, 'data');
    const h = env.host({
      settings: settings({ servers: [s.settings('a', { roots: [data] }), s.settings('b', { roots: false }), s.settings('c')] }),
      consent: { store: new MemoryConsentStore(), prompt, via: 'editor' },
      workspaceFolder: env.dir,
      ...requestPorts().options,
      ...memoryHostOptions(s),
    });
    await h.start();
    assert.deepEqual(Object.fromEntries(prompt.asked.map((r) => [r.server, r.roots])), { a: [data], b: false, c: [env.dir] });
    // A host that answers no server requests declares roots to nobody.
    const bare = new ScriptedPrompt();
    await env.host({ settings: settings({ servers: [s.settings('c')] }), consent: { store: new MemoryConsentStore(), prompt: bare, via: 'editor' }, workspaceFolder: env.dir, ...memoryHostOptions(s) }).start();
    assert.deepEqual(bare.asked.map((r) => r.roots), [false]);
  });

  it('shows "waiting" while the question is open; one question at a time', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let open = 0;
    let maxOpen = 0;
    const prompt = new ScriptedPrompt(async () => {
      maxOpen = Math.max(maxOpen, ++open);
      await gate;
      open--;
      return 'allow' as const;
    });
    const h = host({ store: new MemoryConsentStore(), prompt });
    const started = h.start();
    await waitFor('a to wait for consent', () => h.snapshot().server('a')?.consent === 'waiting');
    assert.equal(h.snapshot().server('b')?.consent, undefined, 'b waits its turn without a question shown');
    release();
    await started;
    assert.equal(maxOpen, 1);
    assert.equal(h.snapshot().server('a')?.consent, undefined);
  });

  it('a failure to ask is not consent and is not kept; --yes starts without asking, audited, not kept; untrusted asks nothing', async () => {
    const store = new MemoryConsentStore();
    const failing = host({ store, prompt: new ScriptedPrompt(() => Promise.reject(new Error('no terminal to ask on'))) });
    await failing.start();
    assert.match(failing.snapshot().server('a')!.failure!, /not started: no terminal to ask on: in-memory --port 1/);
    assert.equal(store.entries.size, 0);
    await failing.close();

    const prompt = new ScriptedPrompt();
    const yes = host({ store, prompt, yes: true });
    await yes.start();
    assert.deepEqual(prompt.asked, []);
    assert.equal(stateKind(yes, 'a'), 'connected');
    assert.deepEqual((yes.sink.records.filter((r: Any) => r.kind === 'consent') as Any[]).map((r) => [r.decision, r.by.via, r.remembered]), [['allow', 'flag', false], ['allow', 'flag', false]]);
    assert.equal(store.entries.size, 0);
    await yes.close();

    const untrusted = host({ store, prompt, trusted: false });
    await untrusted.start();
    assert.deepEqual(prompt.asked, []);
    assert.equal(stateKind(untrusted, 'a'), 'untrusted');
  });

  describe('${env:} values (issue 25: never shown or kept, still noticed when they change)', () => {
    const VALUE = 'arg-key-value-1f2e3d';
    const OTHER = 'arg-key-value-9a8b7c';
    const key = new MemoryIdentityKey();
    const envHost = (o: { store: MemoryConsentStore; prompt: ScriptedPrompt; value: string }) => {
      const s = new InMemoryServers({ a: () => basicServer('a') });
      const sink = new MemorySink();
      const h = env.host({
        settings: settings({ servers: [s.settings('a', { args: ['--api-key=${env:ARG_KEY}'] })] }),
        env: { ARG_KEY: o.value },
        consent: { store: o.store, prompt: o.prompt, via: 'editor', key },
        auditSinks: [sink],
        ...memoryHostOptions(s),
      });
      return Object.assign(h, { sink });
    };

    it('asks with the template, keeps a keyed hash of the value, and asks again (naming the variable) only when the value changes', async () => {
      const store = new MemoryConsentStore();
      const prompt = new ScriptedPrompt();
      const first = envHost({ store, prompt, value: VALUE });
      await first.start();
      assert.equal(commandLine(prompt.asked[0].identity), "in-memory '--api-key=${env:ARG_KEY}'");
      const kept = store.entries.get('a')!;
      assert.deepEqual(Object.keys(kept.variables!), ['ARG_KEY']);
      assert.match(kept.variables!.ARG_KEY, /^[0-9a-f]{64}$/);
      assert.notEqual(kept.variables!.ARG_KEY, createHash('sha256').update(VALUE).digest('hex'), 'keyed, not a plain hash of the value');
      const audit = first.sink.records.filter((r: Any) => r.kind === 'consent') as Any[];
      assert.equal(audit[0].target, "in-memory '--api-key=${env:ARG_KEY}'");
      for (const text of [JSON.stringify([...store.entries]), JSON.stringify(prompt.asked), JSON.stringify(first.sink.records)]) assert.ok(!text.includes(VALUE), text);
      await first.close();

      const same = new ScriptedPrompt(() => 'deny');
      const again = envHost({ store, prompt: same, value: VALUE });
      await again.start();
      assert.deepEqual(same.asked, [], 'the same value: not asked again');
      assert.equal(stateKind(again, 'a'), 'connected');
      await again.close();

      const nobody = envHost({ store, prompt: new ScriptedPrompt(() => Promise.reject(new Error('no terminal to ask on'))), value: OTHER });
      await nobody.start();
      const failure = nobody.snapshot().server('a')!.failure!;
      assert.match(failure, /not started: no terminal to ask on: in-memory '--api-key=\$\{env:ARG_KEY\}' \(the value of \$\{env:ARG_KEY\} changed since it was allowed/);
      assert.ok(!failure.includes(OTHER) && !failure.includes(VALUE));
      await nobody.close();

      const changed = new ScriptedPrompt();
      const h = envHost({ store, prompt: changed, value: OTHER });
      await h.start();
      assert.deepEqual(changed.asked.map((r) => [r.server, r.changedVariables, r.previous]), [['a', ['ARG_KEY'], undefined]]);
      assert.notEqual(store.entries.get('a')!.variables!.ARG_KEY, kept.variables!.ARG_KEY);
      assert.ok(!JSON.stringify([...store.entries]).includes(OTHER));
    });

    it('why a server could not be reached names its URL with ${env:ARG_KEY}, not the value', async () => {
      const h = env.host({
        settings: settings({ servers: [{ name: 'down', type: 'http', enabled: true, url: 'http://127.0.0.1:1/mcp?key=${env:ARG_KEY}', headers: {}, connectTimeoutMs: 5000 }] }),
        env: { ARG_KEY: VALUE },
        consent: { store: new MemoryConsentStore(), prompt: new ScriptedPrompt(), via: 'editor', key },
      });
      await h.start();
      await waitFor('down to fail', () => stateKind(h, 'down') === 'error');
      const failure = h.snapshot().server('down')!.failure!;
      assert.match(failure, /127\.0\.0\.1:1\/mcp\?key=\$\{env:ARG_KEY\}/);
      assert.ok(!failure.includes(VALUE) && !h.log.text().includes(VALUE), h.log.text());
    });

    it('an answer kept by an earlier version (the value in its identity) still counts, and is rewritten without the value', async () => {
      const store = new MemoryConsentStore();
      const legacy = { type: 'stdio' as const, command: 'in-memory', args: [`--api-key=${VALUE}`], envKeys: [] };
      store.entries.set('a', { identityHash: identityHash(legacy), identity: legacy, allowed: true, at: '2026-01-01T00:00:00.000Z' });
      const prompt = new ScriptedPrompt();
      const h = envHost({ store, prompt, value: VALUE });
      await h.start();
      assert.deepEqual(prompt.asked, []);
      assert.equal(stateKind(h, 'a'), 'connected');
      const rewritten = store.entries.get('a')!;
      assert.deepEqual([rewritten.allowed, rewritten.at, commandLine(rewritten.identity)], [true, '2026-01-01T00:00:00.000Z', "in-memory '--api-key=${env:ARG_KEY}'"]);
      assert.ok(!JSON.stringify(rewritten).includes(VALUE));
      await h.close();

      const other = new ScriptedPrompt();
      await envHost({ store, prompt: other, value: OTHER }).start();
      assert.deepEqual(other.asked.map((r) => r.changedVariables), [['ARG_KEY']], 'the rewritten answer still notices a changed value');
    });
  });
});
