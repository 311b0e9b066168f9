import { fake } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ModelStreamPart } from '../../../src/core/agent/agentMessages';
import { LmModelAdapter, fromLmPart, toLmTools } from '../../../src/vscode/lmModelAdapter';

interface Sent {
  messages: unknown[];
  options: vscode.LanguageModelChatRequestOptions | undefined;
  token: vscode.CancellationToken | undefined;
}

function fakeModel(parts: unknown[], sent: Sent[], gate?: Promise<void>): vscode.LanguageModelChat {
  return {
    name: 'scripted',
    id: 'scripted',
    vendor: 'test',
    family: 'test',
    version: '1',
    maxInputTokens: 1000,
    countTokens: async () => 0,
    sendRequest: async (messages: unknown[], options?: vscode.LanguageModelChatRequestOptions, token?: vscode.CancellationToken) => {
      sent.push({ messages, options, token });
      return {
        text: (async function* () {})(),
        stream: (async function* () {
          for (const p of parts) {
            if (gate) await gate;
            yield p;
          }
        })(),
      };
    },
  } as unknown as vscode.LanguageModelChat;
}

async function collect(iterable: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const p of iterable) out.push(p);
  return out;
}

describe('LmModelAdapter (ChatModelPort over vscode.LanguageModelChat)', () => {
  it('streams text and tool calls and skips other parts', async () => {
    const sent: Sent[] = [];
    const model = fakeModel(
      [new fake.LanguageModelTextPart('Hel'), { thinking: true }, new fake.LanguageModelTextPart('lo'), new fake.LanguageModelToolCallPart('c1', 'kb__search', { q: 'x' })],
      sent,
    );
    const parts = await collect(
      new LmModelAdapter(model, 'why').send([{ role: 'user', text: 'hi' }], [{ name: 'kb__search', description: 'Search', inputSchema: { type: 'object' } }], new AbortController().signal),
    );
    assert.deepEqual(parts, [
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'toolCall', call: { callId: 'c1', name: 'kb__search', input: { q: 'x' } } },
    ]);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].messages.length, 1);
    assert.equal(sent[0].options?.justification, 'why');
    assert.deepEqual(sent[0].options?.tools, [{ name: 'kb__search', description: 'Search', inputSchema: { type: 'object' } }]);
  });

  it('sends no tools option when the role has no tools', async () => {
    const sent: Sent[] = [];
    await collect(new LmModelAdapter(fakeModel([], sent)).send([{ role: 'user', text: 'hi' }], [], new AbortController().signal));
    assert.equal(sent[0].options?.tools, undefined);
  });

  it('cancels the request token when the signal aborts', async () => {
    const sent: Sent[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const abort = new AbortController();
    const run = collect(new LmModelAdapter(fakeModel([new fake.LanguageModelTextPart('x')], sent, gate)).send([], [], abort.signal));
    await new Promise((r) => setImmediate(r));
    assert.equal(sent[0].token?.isCancellationRequested, false);
    abort.abort();
    assert.equal(sent[0].token?.isCancellationRequested, true);
    open();
    await run;
  });

  it('starts cancelled when the signal already aborted', async () => {
    const sent: Sent[] = [];
    const abort = new AbortController();
    abort.abort();
    await collect(new LmModelAdapter(fakeModel([], sent)).send([], [], abort.signal));
    assert.equal(sent[0].token?.isCancellationRequested, true);
  });

  it('maps tool definitions and single parts', () => {
    assert.deepEqual(toLmTools([{ name: 'a', description: 'd', inputSchema: {} }]), [{ name: 'a', description: 'd', inputSchema: {} }]);
    assert.equal(fromLmPart('text'), undefined);
  });
});
