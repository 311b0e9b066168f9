/**
 * Fault injection, what a server says: garbage and floods, list_changed storms, a tool removed
 * mid-call, malformed tool definitions and odd names, malformed results and content blocks, and
 * JSON-RPC error codes. Cases that share nothing run in one session (or one `check`) per fault class.
 */
import * as assert from 'node:assert/strict';
import {
  ensureBuilt,
  FaultyStdio,
  healthyServer,
  makeWorkspace,
  removeTempDirs,
  runCli,
  Session,
  tempDir,
  type CliRun,
  type FaultyOptions,
  type Json,
  type Workspace,
} from '../fixtures/faulty/cliFaultHarness';
import {
  assertAtOnce,
  assertAudited,
  assertHealthyAnswers,
  assertHealthyConnected,
  assertNothingLeft,
  LONG_TIMEOUT,
  reportCase,
  sawEvent,
} from './faultAssertions';

const OBJ = { type: 'object' };
const tool = (name: string, extra: Json = {}) => ({ name, description: `tool ${name}`, inputSchema: OBJ, ...extra });
/** A zod issue list or another raw validation dump in a message meant for a person. */
const ZOD_DUMP = /invalid_type|invalid_union|invalid_literal|"path":|"expected":|"code":/;

/** One faulty server in a session beside the healthy one; `end()` checks that nothing is left. */
function openSession(options: FaultyOptions, timeout = LONG_TIMEOUT) {
  const dir = tempDir();
  const faulty = new FaultyStdio(dir, 'faulty', options);
  const ws = makeWorkspace({ faulty: faulty.settings(), healthy: healthyServer() });
  const s = new Session(['--workspace', ws.dir, '--audit', ws.audit, '--timeout', timeout], { pidSources: [() => faulty.pids()] });
  return { faulty, ws, s };
}

describe('faults: what a server says', function () {
  this.timeout(60_000);
  before(ensureBuilt);
  after(removeTempDirs);

  describe('garbage on stdout and a stderr flood', () => {
    let ctx: ReturnType<typeof openSession>;
    before(() => {
      const garbage = ['this is not JSON\n', '{"hello":"json but not JSON-RPC"}\n', '{"jsonrpc":"2.0","id":\n', '\u0000\u00ff\ufffd binary-ish\n', '[1,2,3]\n'];
      ctx = openSession({
        atStart: [...garbage.map((g) => ({ stdout: g })), { stderrBytes: 4 * 1024 * 1024, lineBytes: 300 }],
        tools: [tool('noisy'), tool('flood')],
        calls: {
          noisy: [...garbage.map((g) => ({ stdout: g })), { reply: { text: 'clean answer' } }],
          flood: [{ stderrBytes: 4 * 1024 * 1024, lineBytes: 0 }, { reply: { text: 'after the flood' } }],
        },
      });
    });
    after(() => ctx.s.destroy());

    it('non-JSON lines, JSON that is not JSON-RPC and partial JSON on stdout: the call still answers', async () => {
      const { answer, ms } = await ctx.s.call(1, 'faulty__noisy');
      assert.equal(answer.outcome, 'ok', ctx.s.describe());
      assert.equal(answer.modelText, 'clean answer');
      assertAtOnce(ms, 'the call');
      await assertHealthyAnswers(ctx.s, 'h1');
    });

    it('4 MiB of stderr without a newline during a call (after 4 MiB of lines at start): the call answers, stderr is not echoed without --verbose', async () => {
      const before = ctx.s.rss();
      const { answer, ms } = await ctx.s.call(2, 'faulty__flood');
      const after = ctx.s.rss();
      reportCase('stderr flood 4 MiB (no newline)', { ms, rssGrowthKiB: after.hwmKiB - before.hwmKiB, cliStderrBytes: ctx.s.stderr.length });
      assert.equal(answer.outcome, 'ok', ctx.s.describe());
      assert.equal(answer.modelText, 'after the flood');
      assertAtOnce(ms, 'the call');
      assert.ok(ctx.s.stderr.length < 64 * 1024, `the CLI printed ${ctx.s.stderr.length} bytes of stderr`);
      await assertHealthyAnswers(ctx.s, 'h2');
    });

    it('one audit record per call; the end of the session leaves nothing behind', async () => {
      const end = await ctx.s.end();
      assert.equal(end.code, 0);
      assertAudited(ctx.ws.audit, 'faulty__noisy', 1);
      assertAudited(ctx.ws.audit, 'faulty__flood', 1);
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('tools/list_changed storm and a tool removed mid-call', () => {
    let ctx: ReturnType<typeof openSession>;
    before(() => {
      const storm = { notify: 'notifications/tools/list_changed', count: 2000 };
      ctx = openSession({
        afterInitialized: [storm],
        tools: [tool('stormy'), tool('vanish'), tool('stays')],
        calls: {
          stormy: [storm, { reply: { text: 'calm' } }],
          vanish: [{ removeTool: 'vanish' }, { notify: 'notifications/tools/list_changed' }, { sleep: 300 }, { reply: { text: 'gone but answered' } }],
        },
      });
    });
    after(() => ctx.s.destroy());

    it('2000 list_changed at start and 2000 during a call: the call answers, tools/list is re-read a bounded number of times', async () => {
      const { answer, ms } = await ctx.s.call(1, 'faulty__stormy');
      assert.equal(answer.outcome, 'ok', ctx.s.describe());
      assert.equal(answer.modelText, 'calm');
      assertAtOnce(ms, 'the call');
      await assertHealthyAnswers(ctx.s, 'h1');
      const lists = ctx.faulty.events().filter((e) => e.event === 'request' && e.method === 'tools/list').length;
      reportCase('list_changed storm 2x2000', { ms, toolsListRequests: lists });
      assert.ok(lists <= 20, `tools/list was requested ${lists} times for 4000 notifications`);
    });

    it('a tool that disappears from tools/list mid-call: the call still answers; the tool is then gone (notFound)', async () => {
      const { answer } = await ctx.s.call(2, 'faulty__vanish');
      assert.equal(answer.outcome, 'ok', ctx.s.describe());
      assert.equal(answer.modelText, 'gone but answered');
      await ctx.s.waitFor('the removal event', (l) => l.event === 'toolsChanged' && l.removed?.includes('vanish'));
      const again = await ctx.s.call(3, 'faulty__vanish');
      assert.equal(again.answer.outcome, 'notFound');
      const stays = await ctx.s.call(4, 'faulty__stays', { x: 1 });
      assert.equal(stays.answer.outcome, 'ok');
      await assertHealthyAnswers(ctx.s, 'h2');
    });

    it('one audit record per attempt; nothing left behind', async () => {
      const end = await ctx.s.end();
      assertAudited(ctx.ws.audit, 'faulty__stormy', 1);
      assertAudited(ctx.ws.audit, 'faulty__vanish', 2);
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('malformed tool definitions (one faulty server per malformation, one check)', () => {
    const GOOD = tool('good');
    const cases: Record<string, Json[]> = {
      noType: [GOOD, { name: 'bad', inputSchema: { properties: { a: { type: 'string' } } } }],
      typeString: [GOOD, { name: 'bad', inputSchema: { type: 'string' } }],
      schemaNotObject: [GOOD, { name: 'bad', inputSchema: 'nope' }],
      missingName: [GOOD, { description: 'a tool without a name', inputSchema: OBJ }],
      descriptionNumber: [GOOD, { name: 'bad', description: 42, inputSchema: OBJ }],
      badOutputSchema: [GOOD, { name: 'bad', inputSchema: OBJ, outputSchema: { type: 'object', properties: 5 } }],
      // Passes the SDK's zod schema, but the SDK's ajv cannot compile it (listTools compiles every outputSchema).
      uncompilableOutputSchema: [GOOD, { name: 'bad', inputSchema: OBJ, outputSchema: { type: 'object', properties: { a: { type: 'bogus' } } } }],
      duplicate: [GOOD, { ...GOOD, description: 'the second definition' }],
      slash: [GOOD, tool('a/b')],
      odd: [GOOD, tool('ünïcødé tool 🚀'), tool('x'.repeat(200)), tool('with space'), tool('dots.and:colons')],
    };
    let run: CliRun;
    let doc: Json;
    let ws: Workspace;
    const servers: Record<string, FaultyStdio> = {};
    before(async () => {
      const dir = tempDir();
      const settings: Record<string, Json> = {};
      for (const [name, tools] of Object.entries(cases)) {
        servers[name] = new FaultyStdio(dir, name, { tools });
        settings[name] = servers[name].settings();
      }
      ws = makeWorkspace({ ...settings, healthy: healthyServer() });
      run = await runCli(['check', '--json', '--workspace', ws.dir], { pidSources: Object.values(servers).map((f) => () => f.pids()) });
      doc = assertHealthyConnected(run);
      for (const name of Object.keys(cases)) {
        const v = doc.servers.find((s: Json) => s.name === name);
        reportCase(`malformed tools: ${name}`, { state: v.state, error: v.error?.slice(0, 300), toolCount: v.toolCount, visible: v.visibleToolCount });
      }
    });

    const view = (name: string) => doc.servers.find((s: Json) => s.name === name);
    const exposed = (server: string) => doc.tools.filter((t: Json) => t.server === server).map((t: Json) => t.tool);
    const problemsOf = (server: string) => doc.problems.filter((p: Json) => p.server === server);

    /** The good tool survives, the bad one is reported with a readable reason. */
    function assertBadDropped(server: string, badName: RegExp) {
      const v = view(server);
      assert.equal(v.state, 'connected', `server ${server}: ${v.error}`);
      assert.deepEqual(exposed(server), ['good']);
      const reported = problemsOf(server).filter((p: Json) => badName.test(p.message));
      assert.equal(reported.length, 1, `no problem reports the dropped tool of ${server}: ${JSON.stringify(doc.problems)}`);
      assert.doesNotMatch(reported[0].message, ZOD_DUMP);
    }

    it('an inputSchema without "type": the other tools stay, the bad one is reported (no zod dump)', async () => assertBadDropped('noType', /"bad"/));
    it('an inputSchema of type "string": the other tools stay, the bad one is reported', async () => assertBadDropped('typeString', /"bad"/));
    it('an inputSchema that is not an object: the other tools stay, the bad one is reported', async () => assertBadDropped('schemaNotObject', /"bad"/));
    it('a tool without a name: the other tools stay, the nameless one is reported', async () => assertBadDropped('missingName', /name/));
    it('a description that is a number: the other tools stay, the bad one is reported (or kept without it)', async () => {
      const v = view('descriptionNumber');
      assert.equal(v.state, 'connected', v.error);
      assert.ok(exposed('descriptionNumber').includes('good'));
    });
    it('an outputSchema that is not a valid schema: the other tools stay, the bad one is reported', async () => assertBadDropped('badOutputSchema', /"bad"/));
    it('an outputSchema that cannot be compiled: the other tools stay, the bad one is reported', async () =>
      assertBadDropped('uncompilableOutputSchema', /"bad"/),
    );

    it('a duplicate tool name: the first definition is used, with a warning', async () => {
      assert.equal(view('duplicate').state, 'connected');
      assert.deepEqual(exposed('duplicate'), ['good']);
      assert.equal(doc.tools.find((t: Json) => t.server === 'duplicate').description, 'tool good');
      assert.ok(problemsOf('duplicate').some((p: Json) => /more than once/.test(p.message)));
    });

    it('a tool name containing "/": exposed under a valid name or reported, never silently dropped', async () => {
      assert.equal(view('slash').state, 'connected');
      const shown = exposed('slash').includes('a/b');
      const reported = problemsOf('slash').some((p: Json) => p.message.includes('a/b'));
      assert.ok(shown || reported, `"a/b" is neither exposed nor reported: ${JSON.stringify({ tools: exposed('slash'), problems: problemsOf('slash') })}`);
    });

    it('unicode, long, spaced and dotted names are exposed under model-valid names', async () => {
      assert.equal(view('odd').state, 'connected');
      const odd = doc.tools.filter((t: Json) => t.server === 'odd');
      assert.equal(odd.length, 5);
      for (const t of odd) assert.match(t.name, /^[a-zA-Z0-9_-]{1,64}$/);
      assert.equal(new Set(odd.map((t: Json) => t.name)).size, 5);
    });

    it('check exits 1, and nothing is left behind', async () => {
      assert.equal(run.code, 1);
      assertAtOnce(run.wallMs, 'check');
      assertNothingLeft(run.leftBehind);
    });
  });

  describe('odd names are called with the name the server listed', () => {
    it('a unicode and a 200-character name reach the server unchanged', async () => {
      const long = 'y'.repeat(200);
      const { faulty, ws, s } = openSession({ tools: [tool('ünïcødé 🚀'), tool(long)] });
      try {
        s.send({ id: 't', op: 'tools' });
        const tools = (await s.answer('t')).tools.filter((t: Json) => t.server === 'faulty');
        for (const t of tools) {
          const { answer } = await s.call(`c-${t.tool}`, t.name, { v: 1 });
          assert.equal(answer.outcome, 'ok', s.describe());
        }
        const called = faulty.events().filter((e) => e.event === 'call').map((e) => e.tool);
        assert.deepEqual(called.sort(), ['ünïcødé 🚀', long].sort());
        const end = await s.end();
        assertAudited(ws.audit, tools[0].name, 1);
        assertNothingLeft(end.leftBehind);
      } finally {
        s.destroy();
      }
    });
  });

  describe('malformed results and content blocks', () => {
    let ctx: ReturnType<typeof openSession>;
    const OUT = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    before(() => {
      ctx = openSession({
        tools: [
          tool('unknownBlock'),
          tool('blockWithoutText'),
          tool('structuredArray'),
          tool('contentNotArray'),
          tool('structuredMismatch', { outputSchema: OUT }),
          tool('binaryOnly'),
        ],
        calls: {
          unknownBlock: [
            { reply: { result: { content: [{ type: 'text', text: 'before' }, { type: 'hologram', data: 'AAAA' }, { type: 'text', text: 'after' }] } } },
          ],
          blockWithoutText: [{ reply: { result: { content: [{ type: 'text' }, { type: 'text', text: 'the valid block' }] } } }],
          structuredArray: [{ reply: { result: { content: [{ type: 'text', text: 'text beside' }], structuredContent: [1, 2, 3] } } }],
          contentNotArray: [{ reply: { result: { content: 'just a string' } } }],
          structuredMismatch: [{ reply: { result: { content: [{ type: 'text', text: '{"n":"NaN"}' }], structuredContent: { n: 'not a number' } } } }],
          binaryOnly: [{ reply: { imageBytes: 30_000, withStructured: true } }],
        },
      });
    });
    after(() => ctx.s.destroy());

    const call = async (id: string, name: string) => {
      const r = await ctx.s.call(id, `faulty__${name}`);
      reportCase(`result: ${name}`, { outcome: r.answer.outcome, ms: r.ms, text: r.answer.modelText.slice(0, 300) });
      assertAtOnce(r.ms, name);
      return r.answer;
    };

    it('a content block of an unknown type beside text blocks: the text blocks are kept, the unknown one gets a placeholder', async () => {
      const a = await call('u', 'unknownBlock');
      assert.equal(a.outcome, 'ok', a.modelText);
      assert.match(a.modelText, /before/);
      assert.match(a.modelText, /after/);
      assert.match(a.modelText, /hologram/);
    });

    it('a text block without "text": the valid block is kept, the broken one reported', async () => {
      const a = await call('t', 'blockWithoutText');
      assert.equal(a.outcome, 'ok', a.modelText);
      assert.match(a.modelText, /the valid block/);
    });

    it('structuredContent that is an array: the content is kept, the bad structuredContent dropped', async () => {
      const a = await call('s', 'structuredArray');
      assert.equal(a.outcome, 'ok', a.modelText);
      assert.match(a.modelText, /text beside/);
      assert.equal(a.structuredContent, undefined);
    });

    it('content that is not an array: an error outcome with a readable reason (no zod dump)', async () => {
      const a = await call('c', 'contentNotArray');
      assert.equal(a.outcome, 'error');
      assert.doesNotMatch(a.modelText, ZOD_DUMP);
    });

    it('structuredContent that does not match the outputSchema: an error outcome that says so', async () => {
      const a = await call('m', 'structuredMismatch');
      assert.equal(a.outcome, 'error');
      assert.match(a.modelText, /output schema/);
    });

    it('a binary-only result: the model text carries no base64 blob from structuredContent', async () => {
      const a = await call('b', 'binaryOnly');
      assert.equal(a.outcome, 'ok');
      assert.match(a.modelText, /\[image image\/png, 29\.3 KB\]/);
      assert.ok(a.modelText.length < 2000, `model text of ${a.modelText.length} chars for a 30 KB image`);
    });

    it('the healthy server still answers; one audit record per call; nothing left behind', async () => {
      await assertHealthyAnswers(ctx.s, 'h');
      const end = await ctx.s.end();
      const called = ctx.faulty.events().filter((e) => e.event === 'call').map((e) => e.tool);
      for (const name of new Set(called)) assertAudited(ctx.ws.audit, `faulty__${name}`, called.filter((c) => c === name).length);
      assertNothingLeft(end.leftBehind);
    });
  });

  describe('JSON-RPC error responses', () => {
    let ctx: ReturnType<typeof openSession>;
    const errors: Record<string, Json> = {
      e32601: { code: -32601, message: 'no such method here' },
      e32602: { code: -32602, message: 'bad params here' },
      e32603: { code: -32603, message: 'internal trouble here' },
      e32000: { code: -32000, message: 'server-defined trouble here' },
      e32001: { code: -32001, message: 'server-defined -32001 here' },
      custom: { code: 4242, message: 'custom trouble here', data: { detail: 'with data' } },
    };
    before(() => {
      ctx = openSession({
        tools: [...Object.keys(errors).map((n) => tool(n)), tool('malformedError'), tool('strayThenAnswer')],
        calls: {
          ...Object.fromEntries(Object.entries(errors).map(([n, error]) => [n, [{ reply: { error } }]])),
          malformedError: [{ reply: { rawError: 'a string is not an error object' } }],
          // A response to a request that was never sent, then the real one.
          strayThenAnswer: [{ stdout: '{"jsonrpc":"2.0","id":987654,"result":{"content":[]}}\n' }, { reply: { text: 'the real answer' } }],
        },
        // Long enough that "at once" (< 15 s) and "after the timeout" cannot be confused, short
        // enough that a malformed error that got lost (a regression) would end as a timeout within the test.
      }, '20000');
    });
    after(() => ctx.s.destroy());

    const callError = async (name: string) => {
      const r = await ctx.s.call(name, `faulty__${name}`, {}, 25_000);
      reportCase(`error response: ${name}`, { outcome: r.answer.outcome, ms: r.ms, text: r.answer.modelText });
      return r;
    };

    for (const name of ['e32601', 'e32602', 'e32603', 'custom']) {
      it(`code ${errors[name].code}: an error outcome at once, with the server's message`, async () => {
        const { answer, ms } = await callError(name);
        assert.equal(answer.outcome, 'error');
        assert.ok(answer.modelText.includes(errors[name].message), answer.modelText);
        assertAtOnce(ms, name);
      });
    }

    for (const name of ['e32000', 'e32001']) {
      it(`code ${errors[name].code} from the server: its own error, not reported as a timeout or a closed connection`, async () => {
        const { answer, ms } = await callError(name);
        assert.equal(answer.outcome, 'error', answer.modelText);
        assert.ok(answer.modelText.includes(errors[name].message), answer.modelText);
        assert.doesNotMatch(answer.modelText, /timed out|closed the connection/);
        assertAtOnce(ms, name);
      });
    }

    it('an error response whose "error" is not an object: fails at once, not after the timeout', async () => {
      const { answer, ms } = await callError('malformedError');
      assert.equal(answer.outcome, 'error');
      assertAtOnce(ms, 'malformedError');
    });

    it('a response to an id never sent is ignored; the real answer arrives', async () => {
      const { answer } = await callError('strayThenAnswer');
      assert.equal(answer.outcome, 'ok');
      assert.equal(answer.modelText, 'the real answer');
    });

    it('the healthy server still answers; one audit record per call; nothing left behind', async () => {
      await assertHealthyAnswers(ctx.s, 'h');
      const end = await ctx.s.end();
      const called = ctx.faulty.events().filter((e) => e.event === 'call').map((e) => e.tool);
      assert.ok(sawEvent(ctx.faulty, (e) => e.event === 'call'));
      for (const name of new Set(called)) assertAudited(ctx.ws.audit, `faulty__${name}`, called.filter((c) => c === name).length);
      assertNothingLeft(end.leftBehind);
    });
  });
});
