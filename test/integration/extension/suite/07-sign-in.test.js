'use strict';
// Issue 11 in the editor: a remote server that needs sign-in, signed in through the tree's Sign In
// command, then a tool of it called by the model. The OAuth fixture (an authorization server and a
// protected SDK MCP server, test/fixtures/auth) is bundled with esbuild and started by this test
// in the extension host, on 127.0.0.1. The only stand-in is the browser: the Sign In command is
// given (test mode only) an `openExternal` that requests the URL and follows the redirects, as a
// browser would after the user approved.
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { extLog } = require('../../runner/mochaInExtensionHost');
const h = require('../helpers');

const REPO = process.env.MCP_HOST_TEST_REPO;

/** test/fixtures/auth/authFixture.ts as one CommonJS file (the extension host does not run TypeScript). */
function loadAuthFixture() {
  const esbuild = require(path.join(REPO, 'node_modules', 'esbuild'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-it-auth-'));
  const outfile = path.join(dir, 'authFixture.js');
  esbuild.buildSync({
    entryPoints: [path.join(REPO, 'test', 'fixtures', 'auth', 'authFixture.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return { ...require(outfile), dir };
}

/** What a browser does with the authorization URL once the user approves: follow the redirects. */
function fetchingBrowser(visits) {
  return async (uri) => {
    // What VS Code's opener service hands the browser for a Uri: encodeURI(uri.toString(true)).
    let url = new URL(encodeURI(uri.toString(true)));
    visits.push(`open ${url.href}`);
    for (let hop = 0; hop <= 10; hop++) {
      const res = await fetch(url, { redirect: 'manual' });
      await res.arrayBuffer().catch(() => undefined);
      visits.push(`${res.status} ${url.origin}${url.pathname}`);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) break;
      url = new URL(location, url);
    }
    return true;
  };
}

describe('sign-in to a remote server (OAuth) through the tree', function () {
  this.timeout(90000);
  let fixture;
  let bundleDir;
  let servers;
  let roles;

  before(async () => {
    const loaded = loadAuthFixture();
    bundleDir = loaded.dir;
    fixture = await loaded.startAuthFixture({});
    extLog('    auth fixture: %s (issuer %s)', fixture.mcpUrl, fixture.issuer);
    const config = vscode.workspace.getConfiguration('mcpHost');
    servers = config.get('servers');
    roles = config.get('roles');
    await config.update('activeRole', 'full', vscode.ConfigurationTarget.Workspace);
    // The server first, then the role "full" (which names its servers) with it: a role naming an
    // unknown server is invalid, and an invalid active role stops every server (fail-closed).
    await config.update('servers', { ...servers, tracker: { type: 'http', url: fixture.mcpUrl } }, vscode.ConfigurationTarget.Workspace);
    await config.update('roles', { ...roles, full: { ...roles.full, servers: [...roles.full.servers, 'tracker'] } }, vscode.ConfigurationTarget.Workspace);
    await config.update('autoApprove', [...config.get('autoApprove'), 'tracker/echo'], vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('mcpHost');
    if (roles) await config.update('roles', roles, vscode.ConfigurationTarget.Workspace);
    if (servers) await config.update('servers', servers, vscode.ConfigurationTarget.Workspace);
    if (fixture) await fixture.close();
    if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('shows "needs sign-in" with the issuer, signs in with the Sign In command, then the model calls its tool', async () => {
    const { host } = await h.hostApi();
    const state = () => host.snapshot().server('tracker');
    await h.waitFor('"tracker" to need sign-in', () => state() && state().needsSignIn, { timeout: 30000, describe: () => JSON.stringify(state()) });
    assert.strictEqual(state().issuer, fixture.issuer);
    assert.strictEqual(state().toolCount, 0);
    // The other servers are unaffected.
    assert.strictEqual(host.snapshot().server('basic').state.kind, 'connected');
    assert.strictEqual(fixture.log.authorizations.length, 0, 'nothing opened before a person asked');
    // The chat does not wait for it: a request is answered with the other servers' tools.
    // (Run alone, this is the first chat request: the model may still be registering, so retry.)
    let before;
    for (let attempt = 1; !before; attempt++) {
      before = await h.chatRun({ query: '@mcp anything while tracker waits?', turns: [{ text: 'Yes.' }], timeout: 15000 }).catch((e) => {
        if (attempt >= 3) throw e;
      });
    }
    assert.ok(before.model[0].toolNames.includes('basic__echo'));
    assert.ok(!before.model[0].toolNames.some((n) => n.startsWith('tracker__')));

    const visits = [];
    const m = h.mark();
    // What the tree's inline Sign In passes: the server node.
    const signIn = vscode.commands.executeCommand('mcpHost.signIn', { kind: 'server', name: 'tracker' }, { openExternal: fetchingBrowser(visits) });
    const finished = await Promise.race([signIn.then(() => true), h.sleep(45000).then(() => false)]);
    const seen = () =>
      `browser: ${visits.join(' → ')}\nauthorizations: ${JSON.stringify(fixture.log.authorizations)}\ntokens: ${JSON.stringify(fixture.log.tokenRequests)}\nstate: ${JSON.stringify(state())}`;
    assert.ok(finished, `the sign-in did not finish\n${seen()}`);
    extLog('    %s', visits.slice(1).join(' → '));
    visits.shift();
    assert.strictEqual(state().state.kind, 'connected', JSON.stringify(state()));
    assert.strictEqual(state().toolCount, 2);
    assert.match(visits[0], /^302 http:\/\/127\.0\.0\.1:\d+\/authorize$/);
    assert.match(visits[visits.length - 1], /^200 http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const auth = m.since().audit.filter((r) => r.kind === 'auth');
    assert.deepStrictEqual(auth.map((r) => [r.server, r.event]), [['tracker', 'signInStarted'], ['tracker', 'signInCompleted']]);
    const everything = JSON.stringify(h.readJsonl(h.files.audit));
    assert.deepStrictEqual(fixture.secrets.filter((s) => everything.includes(s)), [], 'no token or code in the audit');

    const run = await h.chatRun({
      query: '@mcp echo through the signed-in server',
      turns: [{ toolCalls: [{ name: 'tracker__echo', input: { text: 'signed in' }, callId: 'c-auth' }] }, { text: 'Done.' }],
      audit: 1,
    });
    assert.ok(run.model[0].toolNames.includes('tracker__echo'));
    const [result] = h.toolResults(run.model[1]);
    assert.strictEqual(result.text, 'echo: signed in');
    const [rec] = run.audit.filter((r) => r.kind === 'call');
    assert.deepStrictEqual([rec.server, rec.tool, rec.outcome], ['tracker', 'echo', 'ok']);
    assert.ok(fixture.log.mcp.some((e) => e.method === 'tools/call' && e.bearer && e.status === 200));
  });
});
