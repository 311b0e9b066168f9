import * as assert from 'node:assert/strict';
import { ElicitationForm, type RequestedSchema } from '../../../src/core/requests/elicitationForm';
import type { SamplingQuestion } from '../../../src/core/requests/sampler';
import { askingProgress, formDialog, samplingAnswerDialog, samplingRequestDialog, urlDialog } from '../../../src/vscode/serverRequestMessages';

const form = new ElicitationForm({
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer' } },
  required: ['name'],
} as unknown as RequestedSchema);

describe('the dialogs of servers that ask', () => {
  it('a form: which server, its message, the fields, the call and the role', () => {
    const d = formDialog({ server: 'asks', role: 'ops', duringCall: ['ask_form'], message: 'Tell us about yourself', form });
    assert.equal(d.message, 'MCP server "asks" asks you for information');
    assert.match(d.detail, /^"Tell us about yourself"\n\nFields: Name \(required\), age\nAsked during its tool call: ask_form\.\nRole: ops\./);
  });

  it('a URL: shown exactly', () => {
    const d = urlDialog({ server: 'asks', duringCall: [], message: 'Link it', url: 'https://example.org/a?b=c', origin: 'https://example.org', elicitationId: 'x' });
    assert.equal(d.message, 'MCP server "asks" asks you to open a web page');
    assert.match(d.detail, /\nSite: https:\/\/example\.org\nhttps:\/\/example\.org\/a\?b=c\n/);
  });

  it('sampling: model, token limit, system prompt and messages; then the answer', () => {
    const q: SamplingQuestion = {
      server: 'asks',
      duringCall: ['sample'],
      messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }],
      systemPrompt: 'Be brief',
      maxTokens: 42,
    };
    const d = samplingRequestDialog(q, 'Scripted (test/scripted)');
    assert.equal(d.message, 'MCP server "asks" wants to use your language model');
    assert.match(d.detail, /It asks "Scripted \(test\/scripted\)" for at most 42 tokens\.\n\nSystem prompt:\nBe brief\n\nMessages:\n\[user\] Write a haiku/);
    assert.match(d.detail, /No tools are offered to the model\./);
    const a = samplingAnswerDialog(q, { model: 'test/scripted', text: 'Old pond' });
    assert.deepEqual(a, { message: 'Return this answer of "test/scripted" to MCP server "asks"?', detail: 'Old pond' });
    assert.equal(askingProgress('sampling', q), 'MCP server "asks" asks to use your language model during sample…');
  });

  it('long details are cut', () => {
    const d = urlDialog({ server: 's', duringCall: [], message: 'x'.repeat(5000), url: 'https://e.org', origin: 'https://e.org', elicitationId: 'i' });
    assert.equal(d.detail.length, 3000);
  });
});
