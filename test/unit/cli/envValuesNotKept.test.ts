/**
 * Issue 25, item 4: a `${env:NAME}` value in args or a URL (and `${NAME}` in a `.mcp.json` URL) is
 * never written to the lockfile or consent.json, nor printed by `lock`, `check` or `call`; the
 * files keep the template. A changed value is still noticed: consent is asked again (refused
 * without a terminal) and the refusal names the variable whose value changed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testConfigDir } from '../../fixtures/cliConsent';
import { startHttpFixture, type HttpFixture } from '../../fixtures/fixtureServers';
import { describeRun, fixtureServer, makeWorkspace, parseJson, removeTempDirs, runCli, type CliResult, type Json } from './cliHarness';

const ARG_KEY = 'argkey-5b1f0e3c9d';
const CHANGED = 'argkey-77aa02e4c1';
const API_KEY = 'apikey-c0ffee8b42';

describe('resolved ${env:} values stay out of files and output', function () {
  // Several CLI runs, each starting three servers: a bound for a busy machine, not a speed claim.
  this.timeout(240_000);
  let http: HttpFixture;
  before(async () => {
    http = await startHttpFixture();
    // The harness reads the workspace (and so .mcp.json, whose ${API_KEY} must be set) in this process.
    process.env.API_KEY = API_KEY;
  });
  after(async () => {
    delete process.env.API_KEY;
    await http?.close();
    removeTempDirs();
  });

  const free = (what: string, text: string) => {
    for (const value of [ARG_KEY, CHANGED, API_KEY]) assert.ok(!text.includes(value), `${what} holds a resolved value:\n${text}`);
  };
  const output = (r: CliResult) => r.stdout + r.stderr;

  it('lockfile, consent.json and the output of lock/check/call keep the template; a changed value is refused as drift', async () => {
    const ws = makeWorkspace({
      'mcpHost.servers': {
        local: { ...fixtureServer('basic'), args: [...(fixtureServer('basic').args as string[]), '--api-key=${env:ARG_KEY}'] },
        remote: { type: 'http', url: `${http.url}?key=\${env:ARG_KEY}` },
      },
      'mcpHost.pinning': 'review',
      'mcpHost.autoApprove': ['local/echo'],
    });
    fs.writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { imported: { url: `${http.url}?token=\${API_KEY}` } } }));
    const env = { ARG_KEY, API_KEY };

    // The harness allows the servers beforehand the way an earlier version kept consent (values in
    // the identity): that answer still counts, and this run rewrites it without the values.
    let r = await runCli(['lock', '--yes', '--workspace', ws], { env });
    assert.equal(r.code, 0, describeRun(r));
    free('lock output', output(r));
    const lockText = fs.readFileSync(path.join(ws, 'mcp-host.lock.json'), 'utf8');
    free('the lockfile', lockText);
    const lock = JSON.parse(lockText).servers;
    assert.ok(lock.local.identity.args.includes('--api-key=${env:ARG_KEY}'), lockText);
    assert.equal(lock.remote.identity.url, `${http.url}?key=\${env:ARG_KEY}`);
    assert.equal(lock.imported.identity.url, `${http.url}?token=\${env:API_KEY}`);

    const consentText = fs.readFileSync(path.join(testConfigDir(), 'consent.json'), 'utf8');
    free('consent.json', consentText);
    const consent = JSON.parse(consentText).workspaces[ws];
    assert.deepEqual(Object.keys(consent.local.variables), ['ARG_KEY']);
    assert.deepEqual(Object.keys(consent.imported.variables), ['API_KEY']);
    assert.equal(consent.remote.identity.url, `${http.url}?key=\${env:ARG_KEY}`);
    if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(testConfigDir(), 'identity-key')).mode & 0o777, 0o600);

    // From here on nothing is allowed beforehand: only what this user's consent.json says counts.
    r = await runCli(['check', '--workspace', ws, '--locked'], { env, consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /matches what the servers list/);
    free('check output', output(r));
    r = await runCli(['call', 'local__echo', '--args', '{"text":"hi"}', '--workspace', ws], { env, consent: false });
    assert.equal(r.code, 0, describeRun(r));
    assert.match(r.stdout, /echo: hi/);
    free('call output', output(r));

    // A lockfile an earlier version wrote (the values in place of the variables) still matches while
    // the values do; `lock` rewrites it with the variables.
    const lockFile = path.join(ws, 'mcp-host.lock.json');
    fs.writeFileSync(lockFile, lockText.split('${env:ARG_KEY}').join(ARG_KEY).split('${env:API_KEY}').join(API_KEY));
    r = await runCli(['check', '--workspace', ws, '--locked'], { env, consent: false });
    assert.equal(r.code, 0, describeRun(r));
    free('check output', output(r));
    r = await runCli(['lock', '--workspace', ws], { env, consent: false });
    assert.equal(r.code, 0, describeRun(r));
    free('lock output', output(r));
    assert.equal(fs.readFileSync(lockFile, 'utf8'), lockText);

    // Another value behind ${env:ARG_KEY}: the lockfile (shared, template only) still matches, but
    // this user's consent notices, and without a terminal the servers using it do not start.
    r = await runCli(['check', '--workspace', ws, '--json'], { env: { ARG_KEY: CHANGED, API_KEY }, consent: false });
    free('check output after the change', output(r));
    const states = Object.fromEntries(parseJson(r).servers.map((s: Json) => [s.name, s]));
    assert.equal(states.imported.state, 'connected', describeRun(r));
    for (const name of ['local', 'remote']) {
      assert.equal(states[name].state, 'notAllowed', describeRun(r));
      assert.match(states[name].reason, /not started: this server has not been allowed to start.*\(the value of \$\{env:ARG_KEY\} changed since it was allowed/);
    }
    r = await runCli(['call', 'local__echo', '--args', '{"text":"hi"}', '--workspace', ws], { env: { ARG_KEY: CHANGED, API_KEY }, consent: false });
    assert.equal(r.code, 3, 'a person must decide: ' + describeRun(r));
    assert.match(r.stderr, /the value of \$\{env:ARG_KEY\} changed since it was allowed/);
    free('call output after the change', output(r));
    free('consent.json after the change', fs.readFileSync(path.join(testConfigDir(), 'consent.json'), 'utf8'));
  });
});
