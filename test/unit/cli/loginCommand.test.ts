/**
 * `mcp-host login|logout` and the sign-in behaviour of check, call and session, run as processes
 * against the auth fixture (an authorization server and a protected SDK MCP server on 127.0.0.1,
 * in this process). The "browser" is test/fixtures/auth/browser.mjs set as BROWSER: it requests
 * the URL and follows the redirects to the CLI's loopback listener.
 */
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startAuthFixture, type AuthFixture, type AuthFixtureOptions } from '../../fixtures/auth/authFixture';
import { createFetchBrowser } from '../../fixtures/auth/fetchBrowser';
import { CliSession, describeRun, makeWorkspace, parseJson, REPO_ROOT, removeTempDirs, runCli, startCli, tempDir, type Json } from './cliHarness';

const BROWSER_SCRIPT = path.join(REPO_ROOT, 'test', 'fixtures', 'auth', 'browser.mjs');

/** Processes whose command line holds `marker` (the browser commands a test's CLI started). */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('mcp-host login / logout and sign-in in check, call, session', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  let fixtures: AuthFixture[] = [];
  let marker: string;
  let env: Record<string, string>;
  let credentials: string;

  beforeEach(() => {
    marker = `mcp-host-test-browser-${crypto.randomBytes(6).toString('hex')}`;
    credentials = path.join(tempDir('mcp-host-cred-'), 'config', 'credentials.json');
    // `%s` is the URL; the marker after it lets the test find the process (browser.mjs ignores it).
    env = { BROWSER: `${process.execPath} ${BROWSER_SCRIPT} %s ${marker}`, MCP_HOST_CREDENTIALS_FILE: credentials };
  });

  afterEach(async () => {
    await Promise.allSettled(fixtures.map((f) => f.close()));
    fixtures = [];
    assert.deepEqual(processesWith(marker), [], 'no browser command outlives the test');
  });

  async function fixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
    const f = await startAuthFixture(options);
    fixtures.push(f);
    return f;
  }

  function workspace(servers: Record<string, unknown>): string {
    return makeWorkspace({ 'mcpHost.servers': servers, 'mcpHost.autoApprove': ['*/*'], 'mcpHost.audit.path': '.mcp-host/audit.jsonl' });
  }

  const audit = (ws: string): Json[] => {
    const file = path.join(ws, '.mcp-host', 'audit.jsonl');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  };

  function noLeaks(f: AuthFixture, ...texts: string[]): void {
    const all = texts.join('\n');
    assert.deepEqual(f.secrets.filter((s) => all.includes(s)), [], 'no token or code in output or audit');
  }

  it('check reports "needs sign-in" with the issuer and the login command; nothing is opened or registered', async () => {
    const f = await fixture();
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['check', '--workspace', ws], { env });
    assert.equal(r.code, 1, describeRun(r));
    assert.match(r.stdout, new RegExp(`^tracker\\s+needsSignIn\\s+-\\s+not signed in \\(sign in with ${f.issuer}\\); run: mcp-host login tracker --workspace ${ws}$`, 'm'));
    assert.match(r.stdout, /^FAILED: 0 of 1 started server connected/m);
    const json = parseJson(await runCli(['check', '--workspace', ws, '--json'], { env }));
    assert.deepEqual(json.servers[0], {
      name: 'tracker',
      state: 'needsSignIn',
      issuer: f.issuer,
      login: `mcp-host login tracker --workspace ${ws}`,
      reason: `not signed in (sign in with ${f.issuer})`,
      toolCount: 0,
      visibleToolCount: 0,
    });
    assert.equal(f.log.authorizations.length, 0);
    assert.equal(f.log.registrations.length, 0);
  });

  it('login signs in through $BROWSER and stores the tokens (0600); check and call use them, refreshing; logout forgets them', async () => {
    const f = await fixture({ refreshTokens: true });
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const login = await runCli(['login', 'tracker', '--workspace', ws], { env });
    assert.equal(login.code, 0, describeRun(login));
    assert.match(login.stdout, new RegExp(`^Signed in to "tracker" with ${f.issuer}\\.$`, 'm'));
    assert.match(login.stdout, new RegExp(`^Credentials: ${credentials}$`, 'm'));
    assert.match(login.stdout, /^tracker: connected to auth-fixture 1\.0\.0 .*, 2 tools$/m);
    assert.match(login.stderr, /opened the sign-in page with \$BROWSER/);
    assert.equal(fs.statSync(credentials).mode & 0o777, 0o600);
    assert.equal(f.log.authorizations.length, 1);

    const check = await runCli(['check', '--workspace', ws], { env });
    assert.equal(check.code, 0, describeRun(check));
    assert.match(check.stdout, /^tracker\s+connected\s+2\/2/m);

    f.expireAccessTokens();
    const call = await runCli(['call', 'tracker__echo', '--args', '{"text":"hi"}', '--workspace', ws], { env });
    assert.equal(call.code, 0, describeRun(call));
    assert.equal(call.stdout, 'echo: hi\n');
    assert.deepEqual(f.log.tokenRequests.map((t) => t.grantType), ['authorization_code', 'refresh_token']);
    assert.equal(f.log.authorizations.length, 1, 'no browser after the first sign-in');

    const logout = await runCli(['logout', 'tracker', '--workspace', ws], { env });
    assert.equal(logout.code, 0, describeRun(logout));
    assert.match(logout.stdout, /^Signed out of "tracker": its tokens and client registrations were removed/m);
    assert.doesNotMatch(fs.readFileSync(credentials, 'utf8'), /access_token/);
    const again = await runCli(['check', '--workspace', ws, '--json'], { env });
    assert.equal(parseJson(again).servers[0].state, 'needsSignIn');
    assert.match((await runCli(['logout', 'tracker', '--workspace', ws], { env })).stdout, /^Nothing was stored for "tracker"/m);

    const records = audit(ws).filter((r) => r.kind === 'auth');
    assert.deepEqual(records.map((r) => r.event), ['signInStarted', 'signInCompleted', 'signedOut', 'signedOut']);
    noLeaks(f, login.stdout, login.stderr, check.stdout, check.stderr, call.stdout, call.stderr, JSON.stringify(audit(ws)));
  });

  it('without BROWSER login prints the URL on stderr and waits for the redirect', async () => {
    const f = await fixture();
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const { child, result } = startCli(['login', 'tracker', '--workspace', ws], { env: { BROWSER: '', MCP_HOST_CREDENTIALS_FILE: credentials } });
    let stderr = '';
    child.stderr!.on('data', (d: string) => (stderr += d));
    const deadline = Date.now() + 20_000;
    const printed = () => /^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\S+)$/m.exec(stderr);
    while (!printed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const url = printed();
    assert.ok(url, `no URL on stderr: ${stderr}`);
    await createFetchBrowser().open(new URL(url[1]));
    const r = await result;
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /^Signed in to "tracker"/m);
  });

  it('call --login signs in by itself, then calls; the audit has the sign-in and the call', async () => {
    const f = await fixture();
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['call', 'tracker__echo', '--args', '{"text":"x"}', '--login', '--workspace', ws], { env });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(r.stdout, 'echo: x\n');
    assert.match(r.stderr, /"tracker" needs you to sign in; signing in \(--login\)/);
    assert.deepEqual(audit(ws).map((x) => `${x.kind} ${x.event ?? x.outcome}`), ['auth signInStarted', 'auth signInCompleted', 'call ok']);
  });

  it('check --login: a server that moves to another authorization server mid-run is signed in there too (registered anew), once', async () => {
    const f = await fixture({ secondAuthorizationServer: true, moveAfterFirstTokenRequest: true });
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['check', '--login', '--json', '--workspace', ws], { env });
    assert.equal(r.code, 0, describeRun(r));
    assert.equal(parseJson(r).servers[0].state, 'connected');
    assert.deepEqual(
      f.log.registrations.map((x) => x.issuer),
      [f.issuer, f.secondIssuer],
      'one registration at each authorization server',
    );
    const oldClients = new Set(f.log.authorizations.filter((x) => x.issuer === f.issuer).map((x) => x.clientId));
    assert.ok(![...f.log.authorizations, ...f.log.tokenRequests].some((e) => e.issuer === f.secondIssuer && oldClients.has(e.clientId ?? '')), 'the old client never reaches the new server');
    assert.equal(r.stderr.match(/needs you to sign in; signing in \(--login\)/g)?.length, 2);
  });

  it('call without --login names the login command when the server needs sign-in', async () => {
    const f = await fixture();
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['call', 'tracker__echo', '--workspace', ws], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`server "tracker" needs sign-in: run "mcp-host login tracker --workspace ${ws}", or add --login`));
    assert.equal(f.log.authorizations.length, 0);
  });

  it('call --login: a 403 insufficient_scope is signed in again with the wider scope once, then the call succeeds', async () => {
    const f = await fixture({ challengeScope: 'mcp:basic', scopesSupported: ['mcp:basic'], toolCallScopes: ['mcp:basic', 'mcp:write'] });
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['call', 'tracker__whoami', '--login', '--workspace', ws], { env });
    assert.equal(r.code, 0, describeRun(r));
    assert.deepEqual(JSON.parse(r.stdout).scopes, ['mcp:basic', 'mcp:write']);
    assert.deepEqual(f.log.authorizations.map((a) => a.scope), ['mcp:basic', 'mcp:basic mcp:write']);
    assert.match(r.stderr, /"tracker" asks for additional permission; signing in \(--login\)/);
  });

  it('call --login: a scope that never suffices stops after one step-up (no loop)', async () => {
    const f = await fixture({ challengeScope: 'mcp:admin', toolCallScopes: ['mcp:admin'], alwaysInsufficientScope: true });
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const r = await runCli(['call', 'tracker__echo', '--args', '{"text":"x"}', '--login', '--workspace', ws], { env });
    assert.equal(r.code, 1, describeRun(r));
    assert.equal(r.stdout, '', 'the host answered, not the tool');
    assert.match(r.stderr, /\nmcp-host: tool "tracker__echo" failed: \S+ asks for additional permission \(scope "mcp:admin"\): sign in again with \S+\n$/);
    assert.equal(f.log.authorizations.length, 2, 'one sign-in and one step-up');
  });

  it('client_credentials: check and call connect without a browser; the secret never appears', async () => {
    const secret = `cc-${crypto.randomBytes(12).toString('hex')}`;
    const f = await fixture({ preRegistered: [{ clientId: 'ci-bot', clientSecret: secret, grants: ['client_credentials'] }] });
    const ws = workspace({ ci: { type: 'http', url: f.mcpUrl, oauth: { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: '${secret:CI_SECRET}' } } });
    const ccEnv = { BROWSER: `/nonexistent-browser ${marker}`, MCP_HOST_CREDENTIALS_FILE: credentials, MCP_HOST_SECRET_CI_SECRET: secret };
    const check = await runCli(['check', '--workspace', ws, '--json'], { env: ccEnv });
    assert.equal(check.code, 0, describeRun(check));
    assert.equal(parseJson(check).servers[0].state, 'connected');
    const call = await runCli(['call', 'ci__echo', '--args', '{"text":"cc"}', '--verbose', '--workspace', ws], { env: ccEnv });
    assert.equal(call.stdout, 'echo: cc\n', describeRun(call));
    const login = await runCli(['login', 'ci', '--workspace', ws], { env: ccEnv });
    assert.equal(login.code, 0, describeRun(login));
    assert.equal(f.log.authorizations.length, 0, 'never a browser');
    for (const text of [check.stdout, check.stderr, call.stdout, call.stderr, login.stdout, login.stderr, fs.readFileSync(credentials, 'utf8'), JSON.stringify(audit(ws))]) {
      assert.ok(!text.includes(secret), 'the client secret appears nowhere');
    }
  });

  it('session --login signs in before answering; its events show the state', async () => {
    const f = await fixture();
    const ws = workspace({ tracker: { type: 'http', url: f.mcpUrl } });
    const s = new CliSession(['--login', '--workspace', ws], { env });
    try {
      s.send({ id: 1, op: 'tools' });
      const tools = await s.answer(1, 30_000);
      assert.deepEqual(tools.tools.map((t: Json) => t.name), ['tracker__echo', 'tracker__whoami']);
      const states = s.lines.filter((l) => l.event === 'serverState').map((l) => l.state);
      assert.deepEqual(states, ['starting', 'needsSignIn', 'stopped', 'starting', 'connected']);
      assert.equal(s.lines.find((l) => l.state === 'needsSignIn').issuer, f.issuer);
      s.end();
      assert.equal((await s.exited).code, 0);
    } finally {
      s.kill();
    }
  });

  it('login and logout refuse unknown and local servers (exit 2)', async () => {
    const ws = workspace({ local: { command: 'node', args: ['x.js'] } });
    const unknown = await runCli(['login', 'nope', '--workspace', ws], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no server named "nope" \(configured servers: "local"\)/);
    const local = await runCli(['logout', 'local', '--workspace', ws], { env });
    assert.equal(local.code, 2);
    assert.match(local.stderr, /only remote \(http, sse\) servers sign in/);
    const usage = await runCli(['login'], { env });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /missing the server NAME to sign in to/);
  });
});
