import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ChallengeRecorder } from '../../../../src/core/auth/authChallenge';
import { HostOAuthProvider } from '../../../../src/core/auth/hostOAuthProvider';
import { needsSignIn, SignInRequiredError } from '../../../../src/core/auth/signInRequiredError';
import { SignInStoppedError, withSignIn } from '../../../../src/core/auth/withSignIn';
import { AuthTestKit, textOf } from './authTestKit';

describe('core/auth: refresh, step-up and retry limits (real flows)', () => {
  let kit: AuthTestKit;
  beforeEach(() => (kit = new AuthTestKit()));
  afterEach(() => kit.dispose());

  /** A connection that never signs in (what `check` does without --login). */
  async function idleConnect(serverUrl: string) {
    const client = new Client({ name: 'idle', version: '1' });
    const authProvider = new HostOAuthProvider({ serverUrl, store: kit.store });
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider }));
    return client;
  }

  it('an expired access token is refreshed silently, in a later connection without a browser', async () => {
    const f = await kit.fixture({ refreshTokens: true });
    assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
    f.expireAccessTokens();
    const client = await idleConnect(f.mcpUrl);
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'again' } })), 'echo: again');
    await client.close();
    assert.deepEqual(
      f.log.tokenRequests.map((t) => `${t.grantType} ${t.outcome}`),
      ['authorization_code issued', 'refresh_token issued'],
    );
    assert.equal(kit.browser.opened.length, 1, 'only the first sign-in opened the browser');
    assert.equal(f.log.tokenRequests[1].resource, f.mcpUrl, 'the refresh names the resource too');
  });

  it('an expired token mid-session: the request is refreshed and retried without the caller noticing', async () => {
    const f = await kit.fixture({ refreshTokens: true });
    const c = await kit.connect(f.mcpUrl);
    f.expireAccessTokens();
    assert.equal(textOf(await c.callTool('echo', { text: 'later' })), 'echo: later');
    assert.equal(kit.signIns.length, 1);
    assert.equal(f.log.tokenRequests.at(-1)?.grantType, 'refresh_token');
  });

  it('a refused refresh token means "needs sign-in" again (and its tokens are dropped)', async () => {
    const f = await kit.fixture({ refreshTokens: true });
    assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
    f.expireAccessTokens();
    f.revokeRefreshTokens();
    await assert.rejects(idleConnect(f.mcpUrl), (e: unknown) => e instanceof SignInRequiredError && e.issuer === f.issuer);
    assert.equal(f.log.tokenRequests.at(-1)?.outcome, 'invalid_grant');
    assert.doesNotMatch(kit.storedText(), /"access_token"/);
    // And signing in again works.
    const c = await kit.connect(f.mcpUrl);
    assert.equal(textOf(await c.callTool('echo', { text: 'ok' })), 'echo: ok');
  });

  it('without refresh tokens, an expired token needs a new sign-in', async () => {
    const f = await kit.fixture({ refreshTokens: false });
    assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
    f.expireAccessTokens();
    await assert.rejects(idleConnect(f.mcpUrl), SignInRequiredError);
  });

  it('step-up: a 403 insufficient_scope re-authorizes once with the wider scope, then the call succeeds', async () => {
    const f = await kit.fixture({ challengeScope: 'mcp:basic', scopesSupported: ['mcp:basic'], toolCallScopes: ['mcp:basic', 'mcp:write'] });
    const c = await kit.connect(f.mcpUrl);
    assert.deepEqual(JSON.parse(textOf(await c.callTool('whoami'))).scopes, ['mcp:basic', 'mcp:write']);
    assert.deepEqual(
      f.log.authorizations.map((a) => a.scope),
      ['mcp:basic', 'mcp:basic mcp:write'],
    );
    assert.deepEqual(
      kit.events.filter((e) => e.type === 'signInStarted').map((e) => (e as { stepUp: boolean }).stepUp),
      [false, true],
    );
  });

  it('step-up also works when a refresh token exists (a refresh would not widen the scope)', async () => {
    const f = await kit.fixture({ refreshTokens: true, challengeScope: 'mcp:basic', toolCallScopes: ['mcp:basic', 'mcp:write'] });
    const c = await kit.connect(f.mcpUrl);
    assert.equal(textOf(await c.callTool('echo', { text: 'w' })), 'echo: w');
    assert.equal(f.log.authorizations.at(-1)?.scope, 'mcp:basic mcp:write');
  });

  it('retry limit: a scope that never suffices stops after one step-up, with a clear error', async () => {
    const f = await kit.fixture({ challengeScope: 'mcp:admin', toolCallScopes: ['mcp:admin'], alwaysInsufficientScope: true });
    const c = await kit.connect(f.mcpUrl);
    await assert.rejects(c.callTool('echo', { text: 'x' }), (e: unknown) => {
      assert.ok(e instanceof SignInStoppedError, String(e));
      assert.match(e.message, /insufficient_scope.*not trying again/);
      return true;
    });
    assert.equal(f.log.authorizations.length, 2, 'the first sign-in and one step-up, nothing more');
    // SDK v2's transport sends a request again once after a step-up (per send); withSignIn sends it once more.
    const calls = f.log.mcp.filter((m) => m.method === 'tools/call').length;
    assert.ok(calls <= 4, `${calls} tools/call requests`);
  });

  it('withSignIn: a server that refuses every fresh token stops after one sign-in', async () => {
    const f = await kit.fixture({ checkResource: false });
    const challenges = new ChallengeRecorder(f.mcpUrl);
    let signIns = 0;
    // A sign-in that "succeeds" without storing anything usable: the server keeps answering 401.
    const attempt = withSignIn(
      async () => {
        const client = new Client({ name: 't', version: '1' });
        const authProvider = new HostOAuthProvider({ serverUrl: f.mcpUrl, store: kit.store });
        await client.connect(new StreamableHTTPClientTransport(new URL(f.mcpUrl), { authProvider, fetch: challenges.fetch }));
        return client;
      },
      { challenges, signIn: async () => (signIns++, { kind: 'signedIn', issuer: f.issuer }) },
    );
    await assert.rejects(attempt, (e: unknown) => e instanceof SignInStoppedError && /still refuses/.test(e.message));
    assert.equal(signIns, 1);
  });

  it('needsSignIn tells sign-in problems from other failures', () => {
    assert.equal(needsSignIn(new SignInRequiredError('http://x/mcp')), true);
    assert.equal(needsSignIn(new Error('ECONNREFUSED')), false);
  });
});
