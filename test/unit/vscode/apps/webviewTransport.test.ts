import * as assert from 'node:assert/strict';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { WebviewTransport, type HostMessage, type ViewMessage } from '../../../../src/vscode/apps/webviewTransport';

/** The webview as the transport sees it: what the extension posts is kept, what the relay sends is pushed in. */
function fakeWebview() {
  const posted: HostMessage[] = [];
  let listener: ((m: unknown) => void) | undefined;
  return {
    posted,
    port: {
      postMessage: async (m: HostMessage) => (posted.push(m), true),
      onDidReceiveMessage: (l: (m: unknown) => void) => ((listener = l), { dispose: () => (listener = undefined) }),
    },
    fromView: (m: unknown) => listener?.(m),
  };
}

/** The app's side of the relay: a real ext-apps `App` whose messages travel as the relay sends them. */
function appTransport(web: ReturnType<typeof fakeWebview>): Transport {
  const t: Transport = {
    start: async () => undefined,
    send: async (message: JSONRPCMessage) => web.fromView({ type: 'rpc', message }),
    close: async () => undefined,
  };
  const post = web.port.postMessage;
  web.port.postMessage = async (m: HostMessage) => {
    await post(m);
    if (m.type === 'rpc') queueMicrotask(() => t.onmessage?.(m.message));
    return true;
  };
  return t;
}

async function until<T>(what: string, get: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('WebviewTransport (the app bridge over a webview)', () => {
  it('carries a real App ↔ AppBridge session: initialize, a tool call answered by the host, tool input and result', async () => {
    const web = fakeWebview();
    const relay: ViewMessage[] = [];
    const problems: string[] = [];
    const transport = new WebviewTransport(web.port, (m) => relay.push(m), (p) => problems.push(p));
    const bridge = new AppBridge(null, { name: 'mcp-host', version: '0' }, { serverTools: {} }, { hostContext: { theme: 'dark' } });
    const calls: unknown[] = [];
    bridge.oncalltool = async (params) => (calls.push(params), { content: [{ type: 'text', text: 'from the host' }] });
    await bridge.connect(transport);

    const app = new App({ name: 'fixture-view', version: '1' }, {}, { autoResize: false });
    const inputs: unknown[] = [];
    app.ontoolinput = (p) => void inputs.push(p.arguments);
    const results: unknown[] = [];
    app.ontoolresult = (p) => void results.push(p.content);
    const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
    await app.connect(appTransport(web));
    await initialized;
    assert.equal(app.getHostContext()?.theme, 'dark');

    const r = await app.callServerTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'from the host' }]);
    assert.deepEqual(calls.map((c) => { const { name, arguments: args } = c as { name: string; arguments: unknown }; return { name, args }; }), [{ name: 'echo', args: { text: 'hi' } }]);

    await bridge.sendToolInput({ arguments: { page: 2 } });
    await bridge.sendToolResult({ content: [{ type: 'text', text: 'done' }] });
    await until('the tool input and result at the view', () => (inputs.length && results.length ? true : undefined));
    assert.deepEqual(inputs, [{ page: 2 }]);
    assert.deepEqual(results, [[{ type: 'text', text: 'done' }]]);

    web.fromView({ type: 'resize', width: 800, height: 600 });
    assert.deepEqual(relay, [{ type: 'resize', width: 800, height: 600 }]);
    assert.deepEqual(problems, []);
    await transport.close();
  });

  it('refuses a malformed JSON-RPC request with -32600 naming what was wrong, and logs it', async () => {
    const web = fakeWebview();
    const problems: string[] = [];
    const transport = new WebviewTransport(web.port, () => undefined, (p) => problems.push(p));
    const received: unknown[] = [];
    transport.onmessage = (m) => void received.push(m);
    await transport.start();

    web.fromView({ type: 'rpc', message: { jsonrpc: '1.0', id: 7, method: 'tools/call' } });
    assert.deepEqual(received, []);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /a JSON-RPC message from the view was refused: .*jsonrpc.*\(message: \{"jsonrpc":"1\.0","id":7/);
    const reply = web.posted[0];
    assert.equal(reply.type, 'rpc');
    const error = (reply as { message: { id: number; error: { code: number; message: string } } }).message;
    assert.equal(error.id, 7);
    assert.equal(error.error.code, -32600);
    assert.match(error.error.message, /^Invalid request: .*jsonrpc/);
  });

  it('ignores (and logs) what is not a relay message; a notification that fails is logged, not answered', async () => {
    const web = fakeWebview();
    const problems: string[] = [];
    const relay: unknown[] = [];
    const transport = new WebviewTransport(web.port, (m) => relay.push(m), (p) => problems.push(p));
    await transport.start();
    web.fromView('hello');
    web.fromView({ type: 'resize', width: -1, height: 10 });
    web.fromView({ type: 'theme', theme: { kind: 'dark', variables: { color: 1 } } });
    web.fromView({ type: 'rpc', message: { jsonrpc: '2.0', method: 42 } });
    assert.deepEqual(relay, []);
    assert.deepEqual(web.posted, []);
    assert.equal(problems.length, 4);
    assert.match(problems[0], /a message from the view was ignored: .*\(message: "hello"\)/);
    assert.match(problems[1], /width: /);
    assert.match(problems[2], /theme\.variables\.color/);
    assert.match(problems[3], /refused/);
  });

  it('after close, sending fails and the view is not written to', async () => {
    const web = fakeWebview();
    const transport = new WebviewTransport(web.port, () => undefined, () => undefined);
    let closed = 0;
    transport.onclose = () => void closed++;
    await transport.start();
    await transport.close();
    await transport.close();
    assert.equal(closed, 1);
    await assert.rejects(transport.send({ jsonrpc: '2.0', method: 'ping' } as JSONRPCMessage), /closed/);
    assert.deepEqual(web.posted, []);
  });
});
