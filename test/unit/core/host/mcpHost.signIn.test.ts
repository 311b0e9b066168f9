import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AuditRecord, AuthAuditRecord } from '../../../../src/core/audit/auditRecord';
import { MemorySink } from '../../../../src/core/audit/auditLog';
import { MemoryCredentialStore } from '../../../../src/core/auth/memoryCredentialStore';
import type { OAuthSettings } from '../../../../src/core/settings/oauthSettings';
import type { SignInRequest } from '../../../../src/core/auth/remoteAuth';
import { ConnectionState } from '../../../../src/core/mcp/connectionState';
import type { RemoteServerSettings } from '../../../../src/core/settings/hostSettings';
import { startAuthFixture, type AuthFixture, type AuthFixtureOptions } from '../../../fixtures/auth/authFixture';
import { WHOAMI_URI } from '../../../fixtures/auth/protectedMcpServer';
import { createFetchBrowser } from '../../../fixtures/auth/fetchBrowser';
import { mapSecrets, settings, stateKind, useTestEnv, waitForState } from '../helpers';

/**
 * The host's OAuth wiring against the real auth fixture (an authorization server and a protected
 * SDK MCP server on 127.0.0.1): the "needs sign-in" state, sign-in and sign-out through
 * `host.auth`, silent use of stored tokens, step-up, client_credentials, and the audit.
 */
/** Our check's words (SDK 1.x) or SDK v2's own RFC 8414 §3.3 check, which now runs first. */
const ISSUER_MISMATCH = /(names the issuer|RFC 8414 §3\.3\): expected "[^"]+", received) "https:\/\/attacker\.example\.com"/;

describe('McpHost: remote servers that need sign-in (issue 11)', () => {
  const env = useTestEnv();
  let fixtures: AuthFixture[] = [];
  afterEach(async () => {
    await Promise.allSettled(fixtures.map((f) => f.close()));
    fixtures = [];
  });

  async function fixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
    const f = await startAuthFixture(options);
    fixtures.push(f);
    return f;
  }

  function remote(name: string, url: string, oauth?: OAuthSettings, headers: Record<string, string> = {}): RemoteServerSettings {
    return { ...env.remote(name, url, 'http', headers), ...(oauth ? { oauth } : {}) };
  }

  function authHost(servers: RemoteServerSettings[], extra: { store?: MemoryCredentialStore; secrets?: Record<string, string> } = {}) {
    const browser = createFetchBrowser();
    const audit = new MemorySink();
    const store = extra.store ?? new MemoryCredentialStore();
    const host = env.host({
      settings: settings({ servers: [env.stdio('local', 'basic.mjs'), ...servers] }),
      credentials: store,
      openUrl: browser.open,
      signInTimeoutMs: 15_000,
      auditSinks: [audit],
      ...(extra.secrets ? { secrets: mapSecrets(extra.secrets) } : {}),
    });
    const authRecords = () => audit.records.filter((r): r is AuthAuditRecord => r.kind === 'auth');
    return { host, browser, audit, store, authRecords };
  }

  const leaks = (f: AuthFixture, text: string) => f.secrets.filter((s) => text.includes(s));

  it('a 401 with the MCP flow is "needs sign-in" with the issuer: no tools, no browser, no restarts; the other server runs', async () => {
    const f = await fixture();
    const { host, browser } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    const view = host.snapshot().server('tracker')!;
    assert.equal(view.state.kind, 'needsSignIn', view.description);
    assert.equal(view.needsSignIn, true);
    assert.equal(view.issuer, f.issuer);
    assert.equal(view.failure, undefined, 'not an error');
    assert.equal(view.toolCount, 0);
    assert.ok(!host.snapshot().exposed.some((t) => t.entry.server === 'tracker'));
    assert.equal(stateKind(host, 'local'), 'connected');
    assert.ok(host.snapshot().exposed.some((t) => t.entry.server === 'local'));
    assert.equal(browser.opened.length, 0, 'nothing is opened without a person asking');
    assert.equal(f.log.registrations.length, 0, 'nothing is registered');
    assert.equal(host.auth.pending('tracker')?.issuer, f.issuer);
    const requests = f.log.mcp.length;
    await host.whenReady(2000);
    await host.servers.refreshTools();
    assert.equal(f.log.mcp.length, requests, 'no restart loop against a server that refuses us');
    assert.match(host.log.text(), /\[tracker\] not signed in \(sign in with http:\/\/127\.0\.0\.1:\d+\)/);

    const result = await host.call({ name: 'tracker__echo', args: { text: 'x' } });
    assert.equal(result.outcome, 'notFound');
  });

  it('a server that lets initialize through and refuses tools/list also waits for sign-in, without restarting', async () => {
    const f = await fixture({ openInitialize: true });
    const { host } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    assert.equal(stateKind(host, 'tracker'), 'needsSignIn');
    const requests = f.log.mcp.length;
    // Longer than the test backoff (50 ms): a restart scheduled by mistake would show here.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(f.log.mcp.length, requests, JSON.stringify(f.log.mcp.slice(requests)));
    assert.equal(stateKind(host, 'tracker'), 'needsSignIn');
    assert.doesNotMatch(host.log.text(), /connection closed|restarting/);
    assert.equal((await host.auth.signIn('tracker')).kind, 'signedIn');
    assert.equal(stateKind(host, 'tracker'), 'connected');
  });

  it('Sign In opens the browser, stores the tokens, restarts the connection; calls work; audit and log carry no token', async () => {
    const f = await fixture();
    const { host, browser, authRecords } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    const states: string[] = [];
    host.onDidChangeServerState((e) => e.server === 'tracker' && states.push(e.state.kind));
    const result = await host.auth.signIn('tracker');
    assert.deepEqual(result, { kind: 'signedIn', issuer: f.issuer });
    assert.equal(stateKind(host, 'tracker'), 'connected', 'signIn resolves once the connection restarted');
    assert.deepEqual(states, ['stopped', 'starting', 'connected']);
    assert.equal(browser.opened.length, 1);
    assert.equal(host.auth.pending('tracker'), undefined);

    const call = await host.call({ name: 'tracker__echo', args: { text: 'hi' } });
    assert.equal(call.outcome, 'ok', call.modelText);
    assert.equal(call.modelText, 'echo: hi');

    assert.deepEqual(
      authRecords().map((r) => r.event),
      ['signInStarted', 'signInCompleted'],
    );
    assert.equal(authRecords()[1].issuer, f.issuer);
    assert.deepEqual(leaks(f, JSON.stringify(authRecords()) + host.log.text()), []);
    assert.match(host.log.text(), /\[tracker\] signed in with http:/);
  });

  it('a token goes only to the server it was issued for', async () => {
    const a = await fixture();
    const b = await fixture();
    const { host } = authHost([remote('a', a.mcpUrl), remote('b', b.mcpUrl)]);
    await host.start();
    assert.equal((await host.auth.signIn('a')).kind, 'signedIn');
    await host.servers.restartServer('b');
    assert.equal(stateKind(host, 'a'), 'connected');
    assert.equal(stateKind(host, 'b'), 'needsSignIn');
    assert.ok(a.log.mcp.some((m) => m.bearer));
    assert.ok(b.log.mcp.length > 0 && b.log.mcp.every((m) => !m.bearer), JSON.stringify(b.log.mcp));
  });

  it('stored tokens are used by a later host, refreshed silently when expired; Sign Out forgets them', async () => {
    const f = await fixture({ refreshTokens: true });
    const store = new MemoryCredentialStore();
    const first = authHost([remote('tracker', f.mcpUrl)], { store });
    assert.equal((await first.host.auth.signIn('tracker')).kind, 'signedIn');
    await first.host.close();

    f.expireAccessTokens();
    const second = authHost([remote('tracker', f.mcpUrl)], { store });
    await second.host.start();
    assert.equal(stateKind(second.host, 'tracker'), 'connected');
    assert.equal(second.browser.opened.length, 0);
    assert.equal(f.log.tokenRequests.at(-1)?.grantType, 'refresh_token');

    assert.equal(await second.host.auth.signOut('tracker'), true);
    assert.equal(stateKind(second.host, 'tracker'), 'needsSignIn', 'restarted without credentials');
    assert.deepEqual(await store.issuers(f.mcpUrl), []);
    assert.deepEqual(
      second.authRecords().map((r) => `${r.event}${r.hadCredentials !== undefined ? ` ${r.hadCredentials}` : ''}`),
      ['signedOut true'],
    );
  });

  it("a 2026-07-28 server's private result is never served to the next account: sign-out and sign-in empty the cache", async () => {
    const f = await fixture({ modern: true });
    const { host } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    assert.equal((await host.auth.signIn('tracker')).kind, 'signedIn');
    assert.match(ConnectionState.describe(host.snapshot().server('tracker')!.state), /protocol 2026-07-28, modern/);
    const reads = () => f.log.mcp.filter((e) => e.method === 'resources/read' && e.bearer).length;
    const whoami = async () => {
      const read = await host.catalog.readResource({ server: 'tracker', uri: WHOAMI_URI });
      const [content] = read.contents as { text?: string }[];
      return (JSON.parse(content?.text ?? '{}') as { clientId?: string }).clientId;
    };
    const first = await whoami();
    assert.ok(first);
    assert.equal(await whoami(), first);
    assert.equal(reads(), 1, 'while its ttlMs runs, the same account is served from the cache');

    // Sign out, sign in again: a new registration, so another client (another account) holds the token.
    assert.equal(await host.auth.signOut('tracker'), true);
    assert.equal((await host.auth.signIn('tracker')).kind, 'signedIn');
    const second = await whoami();
    assert.ok(second);
    assert.notEqual(second, first, "the first account's private result was not served to the second");
    assert.equal(reads(), 2);
  });

  it('a connected server whose tokens stop working is reconnected into "needs sign-in"', async () => {
    const f = await fixture({ refreshTokens: true });
    const { host } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    await host.auth.signIn('tracker');
    f.expireAccessTokens();
    f.revokeRefreshTokens();
    const requests: SignInRequest[] = [];
    host.auth.onDidRequireSignIn((r) => requests.push(r));
    const call = await host.call({ name: 'tracker__echo', args: { text: 'x' } });
    assert.equal(call.outcome, 'error');
    assert.match(call.modelText, /needs you to sign in with/);
    await waitForState(host, 'tracker', ConnectionState.needsSignIn);
    assert.equal(requests[0]?.stepUp, false);
  });

  it('step-up: a call refused with insufficient_scope asks for a wider sign-in; after it the call works', async () => {
    const f = await fixture({ challengeScope: 'mcp:basic', scopesSupported: ['mcp:basic'], toolCallScopes: ['mcp:basic', 'mcp:write'] });
    const { host } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    await host.auth.signIn('tracker');
    const refused = await host.call({ name: 'tracker__whoami', args: {} });
    assert.equal(refused.outcome, 'error');
    assert.match(refused.modelText, /asks for additional permission \(scope "mcp:basic mcp:write"\)/);
    assert.equal(stateKind(host, 'tracker'), 'connected', 'a step-up concerns the call, not the connection');
    assert.deepEqual(host.auth.pending('tracker') && { stepUp: host.auth.pending('tracker')!.stepUp, scope: host.auth.pending('tracker')!.scope }, {
      stepUp: true,
      scope: 'mcp:basic mcp:write',
    });
    assert.equal((await host.auth.signIn('tracker')).kind, 'signedIn');
    assert.deepEqual(f.log.authorizations.map((a) => a.scope), ['mcp:basic', 'mcp:basic mcp:write']);
    const ok = await host.call({ name: 'tracker__whoami', args: {} });
    assert.deepEqual(JSON.parse(ok.modelText).scopes, ['mcp:basic', 'mcp:write']);
  });

  it('two sign-ins for one server at once share one browser flow', async () => {
    const f = await fixture();
    const { host, browser } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    const [r1, r2] = await Promise.all([host.auth.signIn('tracker'), host.auth.signIn('tracker')]);
    assert.equal(r1, r2);
    assert.equal(browser.opened.length, 1);
  });

  it('a declined sign-in is cancelled, audited, and leaves the server waiting', async () => {
    const f = await fixture({ denyConsent: true });
    const { host, authRecords } = authHost([remote('tracker', f.mcpUrl)]);
    await host.start();
    const r = await host.auth.signIn('tracker');
    assert.equal(r.kind, 'cancelled');
    assert.equal(stateKind(host, 'tracker'), 'needsSignIn');
    assert.deepEqual(authRecords().map((x) => x.event), ['signInStarted', 'signInCancelled']);
  });

  /** Whether something still accepts connections on the redirect URI's port. */
  function listening(redirectUri: string): Promise<boolean> {
    const { port } = new URL(redirectUri);
    return new Promise((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  }

  it('an abandoned sign-in (cancelled while the browser page is open) leaves no listener; a declined one neither', async () => {
    const f = await fixture();
    const opened: URL[] = [];
    const host = env.host({
      settings: settings({ servers: [remote('tracker', f.mcpUrl)] }),
      openUrl: async (url) => void opened.push(url),
    });
    await host.start();
    const abort = new AbortController();
    const pending = host.auth.signIn('tracker', { signal: abort.signal });
    while (opened.length === 0) await new Promise((r) => setTimeout(r, 10));
    const redirectUri = opened[0].searchParams.get('redirect_uri')!;
    assert.equal(await listening(redirectUri), true, 'waiting for the browser');
    abort.abort();
    assert.equal((await pending).kind, 'cancelled');
    assert.equal(await listening(redirectUri), false, 'the listener is closed');
    assert.equal(stateKind(host, 'tracker'), 'needsSignIn');

    const declined = await fixture({ denyConsent: true });
    const d = authHost([remote('other', declined.mcpUrl)]);
    await d.host.start();
    assert.equal((await d.host.auth.signIn('other')).kind, 'cancelled');
    assert.equal(await listening(declined.log.authorizations[0].redirectUri!), false);
  });

  it('without a browser opener a sign-in fails and says why', async () => {
    const f = await fixture();
    const host = env.host({ settings: settings({ servers: [remote('tracker', f.mcpUrl)] }) });
    await host.start();
    const r = await host.auth.signIn('tracker');
    assert.equal(r.kind, 'failed');
    assert.match(r.kind === 'failed' ? r.reason : '', /no way to open a browser/);
    await assert.rejects(host.auth.signIn('nope'), /no server named "nope"/);
  });

  it('client_credentials connects without a browser; its secret never reaches the log or the audit', async () => {
    const secret = 'ci-bot-secret-0123456789';
    const f = await fixture({ preRegistered: [{ clientId: 'ci-bot', clientSecret: secret, grants: ['client_credentials'] }] });
    const oauth: OAuthSettings = { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${secret:CI}' };
    const { host, browser, audit, authRecords } = authHost([remote('ci', f.mcpUrl, oauth)], { secrets: { CI: secret } });
    await host.start();
    assert.equal(stateKind(host, 'ci'), 'connected');
    assert.equal((await host.call({ name: 'ci__echo', args: { text: 'ci' } })).modelText, 'echo: ci');
    assert.equal((await host.auth.signIn('ci')).kind, 'signedIn', 'a "sign-in" fetches a token, no browser');
    assert.equal(browser.opened.length, 0);
    assert.equal(f.log.authorizations.length, 0);
    assert.deepEqual(authRecords().map((r) => r.event), ['signInStarted', 'signInCompleted']);
    const all = JSON.stringify(audit.records satisfies AuditRecord[]) + host.log.text();
    assert.ok(!all.includes(secret));
  });

  it('client_credentials with a wrong secret is an error, not "needs sign-in"', async () => {
    const f = await fixture({ preRegistered: [{ clientId: 'ci-bot', clientSecret: 'right-secret', grants: ['client_credentials'] }] });
    const { host } = authHost([remote('ci', f.mcpUrl, { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: 'wrong-secret-value' })]);
    await host.start();
    const view = host.snapshot().server('ci')!;
    assert.equal(view.state.kind, 'error');
    assert.ok(!view.description.includes('wrong-secret-value'));
  });

  it('a server with its own Authorization header keeps it: a 401 is an error about the headers', async () => {
    const f = await fixture();
    const { host } = authHost([remote('static', f.mcpUrl, undefined, { Authorization: 'Bearer not-a-valid-token' })]);
    await host.start();
    const view = host.snapshot().server('static')!;
    assert.equal(view.state.kind, 'error');
    assert.match(view.failure ?? '', /HTTP 401.*check the server's headers and secrets/);
  });

  describe('MCP 2026-07-28 authorization (issue 27)', () => {
    it('a 2025-03-26 server that answers 401 without any metadata needs sign-in, at the default endpoints of its origin', async () => {
      const f = await fixture({ prm: 'none', authServer: 'legacyDefaultEndpoints' });
      const { host } = authHost([remote('legacy', f.mcpUrl)]);
      await host.start();
      const view = host.snapshot().server('legacy')!;
      assert.equal(view.state.kind, 'needsSignIn', view.failure ?? view.description);
      assert.equal(view.issuer?.replace(/\/$/, ''), f.issuer, 'the server itself is the authorization server');
      assert.equal((await host.auth.signIn('legacy')).kind, 'signedIn');
      assert.equal(f.log.registrations.length, 1, 'registered at /register');
      assert.equal(f.log.tokenRequests.at(-1)?.outcome, 'issued');
      const call = await host.call({ name: 'legacy__echo', args: { text: 'old' } });
      assert.equal(call.modelText, 'echo: old');
    });

    it('a server that moves to another authorization server needs sign-in there, registers there, and never shows the old client to it', async () => {
      const f = await fixture({ refreshTokens: true, secondAuthorizationServer: true });
      const { host } = authHost([remote('tracker', f.mcpUrl)]);
      await host.start();
      assert.equal((await host.auth.signIn('tracker')).kind, 'signedIn');
      const oldClient = f.log.authorizations[0].clientId;
      f.moveToSecondAuthorizationServer();
      const call = await host.call({ name: 'tracker__echo', args: { text: 'x' } });
      assert.equal(call.outcome, 'error');
      await waitForState(host, 'tracker', ConnectionState.needsSignIn);
      assert.equal(host.snapshot().server('tracker')?.issuer, f.secondIssuer, 'not the old authorization server');
      assert.equal(host.auth.pending('tracker')?.issuer, f.secondIssuer);
      assert.deepEqual(await host.auth.signIn('tracker'), { kind: 'signedIn', issuer: f.secondIssuer });
      const atSecond = (e: { issuer: string }) => e.issuer === f.secondIssuer;
      assert.equal(f.log.registrations.filter(atSecond).length, 1);
      assert.ok(![...f.log.authorizations, ...f.log.tokenRequests].filter(atSecond).some((e) => e.clientId === oldClient));
      assert.equal((await host.call({ name: 'tracker__echo', args: { text: 'y' } })).modelText, 'echo: y');
    });

    it('client_credentials: after the server moves to another authorization server, its client and secret are not presented there', async () => {
      const secret = 'ci-bot-secret-9876543210';
      const f = await fixture({ preRegistered: [{ clientId: 'ci-bot', clientSecret: secret, grants: ['client_credentials'] }], secondAuthorizationServer: true });
      const { host } = authHost([remote('ci', f.mcpUrl, { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${secret:CI}' })], { secrets: { CI: secret } });
      await host.start();
      assert.equal(stateKind(host, 'ci'), 'connected');
      f.moveToSecondAuthorizationServer();
      assert.equal((await host.call({ name: 'ci__echo', args: { text: 'x' } })).outcome, 'error');
      await host.servers.restartServer('ci');
      const view = host.snapshot().server('ci')!;
      assert.equal(view.state.kind, 'error');
      // The configured client stays with the authorization server that accepted it: not presented to the new one, and
      // no client registered there in its place (SDK v2 would, given a client stamped for another issuer).
      assert.match(view.failure ?? '', new RegExp(`configured client "ci-bot" was first used with the authorization server ${f.issuer}/?, but .* now names ${f.secondIssuer}`));
      assert.deepEqual(f.log.tokenRequests.filter((t) => t.issuer === f.secondIssuer), [], 'the second authorization server never saw the client');
      assert.deepEqual(f.log.registrations, [], 'nothing registered at either authorization server');
    });

    it('authorization server metadata that names another issuer is an error saying so, never "needs sign-in"', async () => {
      const f = await fixture({ metadataIssuer: 'https://attacker.example.com' });
      const { host, browser } = authHost([remote('tracker', f.mcpUrl)]);
      await host.start();
      const view = host.snapshot().server('tracker')!;
      assert.equal(view.state.kind, 'error');
      assert.match(view.failure ?? '', ISSUER_MISMATCH);
      const r = await host.auth.signIn('tracker');
      assert.equal(r.kind, 'failed');
      assert.equal(browser.opened.length, 0);
      assert.equal(f.log.registrations.length, 0);
    });
  });
});
