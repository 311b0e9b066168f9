import { fake, LanguageModelChatMessageRole } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type { AgentMessage } from '../../../src/core/agent/agentMessages';
import { toLmMessages, toToolInput } from '../../../src/vscode/lmMessages';
import { hasImageParts, toLmResultContent, toLmToolResultPart } from '../../../src/vscode/lmResultParts';

describe('vscode.lm conversion', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

  it('detects LanguageModelDataPart.image', () => {
    assert.equal(hasImageParts(), true);
  });

  it('turns text parts into LanguageModelTextParts and images into image data parts', () => {
    const content = toLmResultContent([
      { type: 'text', text: 'hello' },
      { type: 'data', kind: 'image', mimeType: 'image/png', data: png },
      { type: 'text', text: 'after' },
    ]);
    assert.equal(content.length, 3);
    assert.ok(content[0] instanceof fake.LanguageModelTextPart);
    assert.equal((content[0] as InstanceType<typeof fake.LanguageModelTextPart>).value, 'hello');
    assert.ok(content[1] instanceof fake.LanguageModelDataPart);
    assert.equal((content[1] as InstanceType<typeof fake.LanguageModelDataPart>).mimeType, 'image/png');
    assert.deepEqual((content[1] as InstanceType<typeof fake.LanguageModelDataPart>).data, png);
  });

  it('uses the placeholder line for images when the editor has no data parts, and for audio always', () => {
    const content = toLmResultContent(
      [
        { type: 'data', kind: 'image', mimeType: 'image/png', data: png },
        { type: 'data', kind: 'audio', mimeType: 'audio/wav', data: new Uint8Array(2048) },
      ],
      false,
    );
    assert.deepEqual(
      content.map((p) => (p as InstanceType<typeof fake.LanguageModelTextPart>).value),
      ['[image image/png, 4 B]', '[audio audio/wav, 2.0 KB]'],
    );
    const withImages = toLmResultContent([{ type: 'data', kind: 'audio', mimeType: 'audio/wav', data: new Uint8Array(3) }], true);
    assert.ok(withImages[0] instanceof fake.LanguageModelTextPart);
  });

  it('never sends an empty tool result', () => {
    const content = toLmResultContent([]);
    assert.equal((content[0] as InstanceType<typeof fake.LanguageModelTextPart>).value, '(the tool returned no content)');
  });

  it('wraps a result in a LanguageModelToolResultPart with its call id', () => {
    const part = toLmToolResultPart({ callId: 'c1', name: 'kb__search', outcome: 'ok', parts: [{ type: 'text', text: 'found' }] });
    assert.ok(part instanceof fake.LanguageModelToolResultPart);
    assert.equal(part.callId, 'c1');
    assert.equal(part.content.length, 1);
  });

  it('converts a conversation: user text, assistant text + tool calls, one user message of tool results per round', () => {
    const messages: AgentMessage[] = [
      { role: 'user', text: 'find order 7' },
      { role: 'assistant', text: 'Looking.', toolCalls: [{ callId: 'a', name: 'orders__get', input: { id: 7 } }, { callId: 'b', name: 'kb__search', input: '{"q":"x"}' }] },
      {
        role: 'tool',
        results: [
          { callId: 'a', name: 'orders__get', outcome: 'ok', parts: [{ type: 'text', text: 'order 7' }] },
          { callId: 'b', name: 'kb__search', outcome: 'isError', parts: [{ type: 'text', text: 'boom' }] },
        ],
      },
      { role: 'assistant', text: '', toolCalls: [{ callId: 'c', name: 'x', input: undefined }] },
      { role: 'assistant', text: 'Done.', toolCalls: [] },
    ];
    const lm = toLmMessages(messages) as unknown as InstanceType<typeof fake.LanguageModelChatMessage>[];
    assert.deepEqual(
      lm.map((m) => m.role),
      [LanguageModelChatMessageRole.User, LanguageModelChatMessageRole.Assistant, LanguageModelChatMessageRole.User, LanguageModelChatMessageRole.Assistant, LanguageModelChatMessageRole.Assistant],
    );
    const assistant = lm[1].content as unknown[];
    assert.ok(assistant[0] instanceof fake.LanguageModelTextPart);
    assert.ok(assistant[1] instanceof fake.LanguageModelToolCallPart);
    assert.deepEqual((assistant[1] as InstanceType<typeof fake.LanguageModelToolCallPart>).input, { id: 7 });
    assert.deepEqual((assistant[2] as InstanceType<typeof fake.LanguageModelToolCallPart>).input, { q: 'x' }, 'JSON string input is parsed');
    const results = lm[2].content as InstanceType<typeof fake.LanguageModelToolResultPart>[];
    assert.deepEqual(results.map((r) => r.callId), ['a', 'b']);
    assert.ok(results.every((r) => r instanceof fake.LanguageModelToolResultPart));
    const emptyText = lm[3].content as unknown[];
    assert.equal(emptyText.length, 1, 'no empty text part');
    assert.ok(emptyText[0] instanceof fake.LanguageModelToolCallPart);
  });

  it('always gives a tool call an object input', () => {
    assert.deepEqual(toToolInput({ a: 1 }), { a: 1 });
    assert.deepEqual(toToolInput('{"a":1}'), { a: 1 });
    assert.deepEqual(toToolInput('not json'), { input: 'not json' });
    assert.deepEqual(toToolInput(''), {});
    assert.deepEqual(toToolInput([1, 2]), {});
    assert.deepEqual(toToolInput(null), {});
  });
});
