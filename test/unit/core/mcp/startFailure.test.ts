/** Which stderr line explains a failed start (the real Node case is in test/unit/cli/checkCommand.test.ts), and what a failed start says. */
import * as assert from 'node:assert/strict';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describeStartFailure, StderrTail } from '../../../../src/core/mcp/startFailure';
import { startFaultyHttp, tempDir, type HttpServer } from '../../../fixtures/faulty/cliFaultHarness';
import { settings, useTestEnv } from '../helpers';

const tailOf = (text: string) => {
  const tail = new StderrTail(() => undefined);
  for (const line of text.split('\n')) tail.push(line);
  return tail;
};

describe('StderrTail', () => {
  it('names the error line of a Python traceback, even when it is the last line', () => {
    const t = tailOf(`Traceback (most recent call last):\n  File "/srv/server.py", line 3, in <module>\n    import mcp_missing\nModuleNotFoundError: No module named 'mcp_missing'\n`);
    assert.equal(t.hint(), "; stderr: ModuleNotFoundError: No module named 'mcp_missing'");
  });

  it('keeps the error line after the stack scrolled it out of the tail; clear() forgets it', () => {
    const frames = Array.from({ length: 20 }, (_, i) => `    at frame${i} (file.js:${i}:1)`).join('\n');
    const t = tailOf(`Error: Cannot find module '/srv/missing.js'\n${frames}\n  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2`);
    assert.equal(t.hint(), "; stderr: Error: Cannot find module '/srv/missing.js'");
    t.clear();
    assert.equal(t.hint(), '');
  });

  it('without an error line: the last lines that are not stack frames or footers', () => {
    assert.equal(tailOf('listening on stdio\nbad config at line 4\n}\nNode.js v20.20.2').hint(), '; last stderr: listening on stdio | bad config at line 4');
    assert.equal(tailOf('}\n').hint(), '; last stderr: }');
  });
});

describe('describeStartFailure', () => {
  const none = new StderrTail(() => undefined);

  it('a remote connection closed during start-up names the URL', () => {
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    assert.equal(describeStartFailure(closed, undefined, 10_000, none, 'http://127.0.0.1:1/mcp'), 'the connection to http://127.0.0.1:1/mcp closed during start-up');
    // Without a URL (stdio, no exit known yet) the SDK's words stay.
    assert.equal(describeStartFailure(closed, undefined, 10_000, none), 'Connection closed');
  });

  describe('against a real HTTP server that dies while it is listed', function () {
    this.timeout(30_000);
    const env = useTestEnv();
    const servers: HttpServer[] = [];
    after(async () => {
      for (const h of servers) await h.close();
    });

    // Whether the host sees the socket go or the connection close first varies run by run: both name the server.
    for (let run = 1; run <= 3; run++) {
      it(`says which server went (run ${run})`, async () => {
        const h = await startFaultyHttp(tempDir(), `dies-${run}`, { tools: [{ name: 'echo', inputSchema: { type: 'object' } }], toolsList: [{ die: true }] });
        servers.push(h);
        const host = await env.started({ settings: settings({ servers: [env.remote('faulty', h.url)] }) });
        const state = host.snapshot().servers.find((s) => s.name === 'faulty')!.state;
        assert.equal(state.kind, 'error');
        assert.ok(state.kind === 'error' && state.message.includes(h.url), JSON.stringify(state));
      });
    }
  });
});
