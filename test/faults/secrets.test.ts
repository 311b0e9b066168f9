/**
 * Secret hygiene against servers that echo what they were given. The rule (issue 9): a value the
 * host knows to be secret — a resolved `${secret:}` (env, args, header, url) or an argument value
 * redacted by key (e.g. `token`) — never appears in stdout, stderr or the audit.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  ensureBuilt,
  FaultyStdio,
  healthyServer,
  makeWorkspace,
  removeTempDirs,
  runCli,
  Session,
  startFaultyHttp,
  tempDir,
  type HttpServer,
  type Json,
} from '../fixtures/faulty/cliFaultHarness';
import { assertAudited, assertHealthyAnswers, assertNothingLeft, LONG_TIMEOUT, reportCase } from './faultAssertions';

const ENV_SECRET = 'env-secret-5d1c9e7a';
const ARG_SECRET = 'arg-secret-0b3f44c2';
const HEADER_SECRET = 'header-secret-9a7e21d0';
const URL_SECRET = 'url-secret-77c2e8f1';
const KEY_REDACTED = 'token-value-c0ffee1234';
const SECRET_ENV = {
  MCP_HOST_SECRET_FAULTS_ENV: ENV_SECRET,
  MCP_HOST_SECRET_FAULTS_ARG: ARG_SECRET,
  MCP_HOST_SECRET_FAULTS_HEADER: HEADER_SECRET,
  MCP_HOST_SECRET_FAULTS_URL: URL_SECRET,
};
const OBJ = { type: 'object' };
const tool = (name: string) => ({ name, inputSchema: OBJ });

describe('faults: secrets echoed by servers', function () {
  this.timeout(60_000);
  before(ensureBuilt);
  after(removeTempDirs);

  let s: Session;
  let ws: ReturnType<typeof makeWorkspace>;
  let faulty: FaultyStdio;
  let h: HttpServer;
  const answers: Record<string, Json> = {};

  before(async () => {
    const dir = tempDir();
    faulty = new FaultyStdio(dir, 'faulty', {
      tools: ['envEcho', 'argvEcho', 'envEchoIsError', 'errorEcho', 'argsEcho', 'stderrEcho'].map(tool),
      calls: {
        envEcho: [{ reply: { echoEnv: 'SECRET_ENV' } }],
        argvEcho: [{ reply: { echoArgv: true } }],
        envEchoIsError: [{ reply: { echoEnv: 'SECRET_ENV', isError: true } }],
        errorEcho: [{ reply: { error: { code: -32603, message: `bad key ${ENV_SECRET}` } } }],
        argsEcho: [{ reply: { echoArgs: true } }],
        stderrEcho: [{ stderr: `the key is ${ENV_SECRET}\n` }, { reply: { text: 'done' } }],
      },
    });
    h = await startFaultyHttp(dir, 'remote', {
      tools: [tool('headerEcho'), tool('urlEcho')],
      calls: { headerEcho: [{ reply: { echoHeader: 'authorization' } }], urlEcho: [{ reply: { echoUrl: true } }] },
    });
    ws = makeWorkspace({
      faulty: faulty.settings({ env: { SECRET_ENV: '${secret:FAULTS_ENV}' }, args: ['--key=${secret:FAULTS_ARG}'] }),
      remote: { type: 'http', url: `${h.url}?key=\${secret:FAULTS_URL}`, headers: { Authorization: 'Bearer ${secret:FAULTS_HEADER}' } },
      healthy: healthyServer(),
    });
    // --verbose: server stderr and lifecycle messages go to stderr too, so they are checked as well.
    s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', LONG_TIMEOUT, '--verbose'], {
      env: SECRET_ENV,
      pidSources: [() => faulty.pids()],
    });
    for (const name of ['faulty__envEcho', 'faulty__argvEcho', 'faulty__envEchoIsError', 'faulty__errorEcho', 'faulty__stderrEcho', 'remote__headerEcho', 'remote__urlEcho']) {
      answers[name] = (await s.call(name, name)).answer;
    }
    answers.argsEcho = (await s.call('argsEcho', 'faulty__argsEcho', { token: KEY_REDACTED, note: 'plain' })).answer;
    await assertHealthyAnswers(s, 'h');
  });
  after(async () => {
    s.destroy();
    await h.close();
  });

  /** Where a secret must never be: every stdout line of the session, its stderr, the audit file. */
  function leaks(secret: string): string[] {
    const where: string[] = [];
    const stdout = s.lines.map((l) => JSON.stringify(l)).join('\n');
    if (stdout.includes(secret)) where.push('stdout');
    if (s.stderr.includes(secret)) where.push('stderr');
    if (fs.existsSync(ws.audit) && fs.readFileSync(ws.audit, 'utf8').includes(secret)) where.push('audit');
    return where;
  }

  it('the fixtures really echo (the secrets reached the servers)', async () => {
    for (const name of ['faulty__envEcho', 'faulty__argvEcho', 'remote__headerEcho', 'remote__urlEcho', 'faulty__stderrEcho']) {
      assert.equal(answers[name].outcome, 'ok', `${name}: ${answers[name].modelText}`);
    }
    assert.match(answers['faulty__envEcho'].modelText, /^SECRET_ENV=(\[secret\]|env-secret)/);
    assert.match(answers['remote__headerEcho'].modelText, /^authorization=Bearer /);
  });

  for (const [label, name, secret] of [
    ['env', 'faulty__envEcho', ENV_SECRET],
    ['args', 'faulty__argvEcho', ARG_SECRET],
    ['env, in an isError result', 'faulty__envEchoIsError', ENV_SECRET],
    ['a header', 'remote__headerEcho', HEADER_SECRET],
    ['the url', 'remote__urlEcho', URL_SECRET],
  ] as const) {
    it(`a \${secret:} in ${label} echoed in a result never reaches stdout, stderr or the audit`, async () => {
      const answer = answers[name];
      reportCase(`secret echo: ${label}`, { leaks: leaks(secret), modelText: answer.modelText.replace(secret, '<SECRET>') });
      assert.ok(!answer.modelText.includes(secret), `model text: ${answer.modelText}`);
      assert.ok(!JSON.stringify(answer.content).includes(secret), 'content');
      assert.deepEqual(leaks(secret), []);
    });
  }

  it('a ${secret:} in a JSON-RPC error message is masked everywhere', async () => {
    assert.equal(answers['faulty__errorEcho'].outcome, 'error');
    assert.match(answers['faulty__errorEcho'].modelText, /bad key \[secret\]/);
  });

  it('a ${secret:} written to the server\'s stderr is masked in the CLI\'s stderr (--verbose)', async () => {
    assert.ok(s.stderr.includes('the key is [secret]'), s.stderr.slice(0, 2000));
  });

  it('an argument redacted by key ("token") is [redacted] in the audit\'s args', async () => {
    const [record] = assertAudited(ws.audit, 'faulty__argsEcho', 1);
    assert.equal(record.args.token, '[redacted]');
    assert.equal(record.args.note, 'plain');
  });

  it('an argument redacted by key ("token") and echoed by the server never reappears in the audit\'s result', async () => {
    const [record] = assertAudited(ws.audit, 'faulty__argsEcho', 1);
    reportCase('key-redacted argument echoed: audit result', { result: record.result });
    assert.ok(!record.result.includes(KEY_REDACTED), `audit result: ${record.result}`);
  });

  it('an argument redacted by key ("token") and echoed by the server is not handed back in the model text', async () => {
    assert.ok(!answers.argsEcho.modelText.includes(KEY_REDACTED), answers.argsEcho.modelText);
  });

  it('one complete audit record per call; the end of the session leaves nothing behind', async () => {
    const end = await s.end();
    for (const name of Object.keys(answers)) assertAudited(ws.audit, name === 'argsEcho' ? 'faulty__argsEcho' : name, 1);
    assertNothingLeft(end.leftBehind);
  });

  it('a server that prints a secret to stderr and dies at start: check masks it in the error', async () => {
    const dir = tempDir();
    const dying = new FaultyStdio(dir, 'dying', { atStart: [{ stderr: `fatal: key ${ENV_SECRET} rejected\n` }, { exit: 2 }] });
    const w = makeWorkspace({ dying: dying.settings({ env: { K: '${secret:FAULTS_ENV}' } }) });
    const run = await runCli(['check', '--json', '--workspace', w.dir, '--verbose'], { env: SECRET_ENV, pidSources: [() => dying.pids()] });
    const view = JSON.parse(run.stdout).servers[0];
    assert.match(view.error, /key \[secret\] rejected/);
    assert.ok(!run.stdout.includes(ENV_SECRET) && !run.stderr.includes(ENV_SECRET));
    assertNothingLeft(run.leftBehind);
  });
});
