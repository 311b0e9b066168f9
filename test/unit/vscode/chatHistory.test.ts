import './fakeVscode';
import * as assert from 'node:assert/strict';
import type { ToolRound } from '../../../src/core/agent/agentMessages';
import { historyToMessages, markdownOf } from '../../../src/vscode/chatHistory';
import { MAX_STORED_DATA_BYTES, METADATA_KEY, fromTurnMetadata, toTurnMetadata } from '../../../src/vscode/roundMetadata';

const md = (value: string) => ({ value: { value } });
const skip = new Set(['role', 'tools', 'servers']);

const round: ToolRound = {
  text: 'Let me look.',
  toolCalls: [{ callId: 'c1', name: 'orders__get', input: { id: 7 } }],
  results: [
    {
      callId: 'c1',
      name: 'orders__get',
      outcome: 'ok',
      parts: [
        { type: 'text', text: 'order 7: shipped' },
        { type: 'data', kind: 'image', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) },
      ],
    },
  ],
};

describe('chat history and round metadata', () => {
  it('keeps rounds in JSON-safe metadata and reads them back', () => {
    const meta = toTurnMetadata([round], 'It shipped.', 'support');
    const json = JSON.parse(JSON.stringify(meta));
    assert.equal(json[METADATA_KEY].role, 'support');
    const back = fromTurnMetadata(json);
    assert.ok(back);
    assert.equal(back.finalText, 'It shipped.');
    assert.deepEqual(back.rounds[0].toolCalls, round.toolCalls);
    const image = back.rounds[0].results[0].parts[1];
    assert.equal(image.type, 'data');
    assert.deepEqual(image.type === 'data' && [...image.data], [1, 2, 3]);
  });

  it('keeps oversized binary results as their placeholder line', () => {
    const big: ToolRound = {
      ...round,
      results: [{ callId: 'c1', name: 'x', outcome: 'ok', parts: [{ type: 'data', kind: 'image', mimeType: 'image/png', data: new Uint8Array(MAX_STORED_DATA_BYTES + 1) }] }],
    };
    const back = fromTurnMetadata(JSON.parse(JSON.stringify(toTurnMetadata([big], ''))));
    const part = back!.rounds[0].results[0].parts[0];
    assert.equal(part.type, 'text');
    assert.match(part.type === 'text' ? part.text : '', /^\[image image\/png, 512\.0 KB\] \(not kept/);
  });

  it('ignores metadata that is not ours or is malformed', () => {
    assert.equal(fromTurnMetadata(undefined), undefined);
    assert.equal(fromTurnMetadata({ command: 'role' }), undefined);
    assert.equal(fromTurnMetadata({ [METADATA_KEY]: { version: 2, rounds: [], finalText: '' } }), undefined);
    assert.equal(fromTurnMetadata({ [METADATA_KEY]: { version: 1, rounds: [{ text: 1 }], finalText: '' } }), undefined);
    assert.equal(
      fromTurnMetadata({ [METADATA_KEY]: { version: 1, rounds: [{ text: '', toolCalls: [], results: [{ callId: 'a', name: 'b', parts: [{ type: 'bogus' }] }] }], finalText: '' } }),
      undefined,
    );
  });

  it('replays earlier prompts, tool rounds and answers; skips slash-command turns', () => {
    const history = [
      { prompt: 'where is order 7?', participant: 'mcpHost.agent' },
      { response: [md('Let me look.'), md('It shipped.')], result: { metadata: toTurnMetadata([round], 'It shipped.') }, participant: 'mcpHost.agent' },
      { prompt: '', command: 'tools', participant: 'mcpHost.agent' },
      { response: [md('| Tool |…')], result: { metadata: { command: 'tools' } }, command: 'tools', participant: 'mcpHost.agent' },
      { prompt: 'thanks', participant: 'mcpHost.agent' },
      { response: [md('You are welcome.'), { value: 'not markdown' }], result: {}, participant: 'mcpHost.agent' },
    ];
    const messages = historyToMessages(history, skip);
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant'],
    );
    assert.deepEqual(messages[1], { role: 'assistant', text: 'Let me look.', toolCalls: round.toolCalls });
    assert.equal(messages[2].role === 'tool' && messages[2].results[0].callId, 'c1');
    assert.deepEqual(messages[3], { role: 'assistant', text: 'It shipped.', toolCalls: [] });
    assert.deepEqual(messages[5], { role: 'assistant', text: 'You are welcome.', toolCalls: [] });
  });

  it('joins only markdown parts of a response', () => {
    assert.equal(markdownOf([md('a'), { value: { uri: 'x' } }, md('b'), null]), 'ab');
  });

  it('reads turns that are class instances with getters, as the editor hands them over', () => {
    class MarkdownString {
      readonly #value: string;
      constructor(value: string) {
        this.#value = value;
      }
      get value(): string {
        return this.#value;
      }
    }
    class RequestTurn {
      constructor(
        readonly prompt: string,
        readonly command: string | undefined,
      ) {}
    }
    class ResponseTurn {
      constructor(
        readonly response: readonly unknown[],
        readonly result: { metadata?: unknown },
      ) {}
    }
    const messages = historyToMessages(
      [new RequestTurn('hi', undefined), new ResponseTurn([{ value: new MarkdownString('Hello.') }], {}), new RequestTurn('', 'tools')],
      skip,
    );
    assert.deepEqual(messages, [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'Hello.', toolCalls: [] },
    ]);
  });

  it('ignores turns and fields of unknown shape', () => {
    const messages = historyToMessages([null, 42, { prompt: 7 }, { prompt: 'x', command: 5 }, { response: 'no array', result: {} }], skip);
    assert.deepEqual(messages, [{ role: 'user', text: 'x' }], 'a command that is not a string counts as none');
    const stored = toTurnMetadata([round], 'done');
    const bad = JSON.parse(JSON.stringify(stored));
    bad[METADATA_KEY].rounds[0].results[0].parts[1].kind = 'video';
    assert.equal(fromTurnMetadata(bad), undefined, 'a data part of an unknown kind');
    delete bad[METADATA_KEY].rounds[0].results[0].outcome;
    bad[METADATA_KEY].rounds[0].results[0].parts[1].kind = 'audio';
    assert.equal(fromTurnMetadata(bad)?.rounds[0].results[0].outcome, '', 'a missing outcome reads as ""');
  });
});
