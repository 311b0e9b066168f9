/** The terminal's form flow, driven through in-memory streams. */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { TerminalPrompter } from '../../../src/cli/terminalPrompter';
import { ElicitationForm, type RequestedSchema } from '../../../src/core/requests/elicitationForm';
import type { FormQuestion, UrlQuestion } from '../../../src/core/requests/elicitationPrompter';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'Ada' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    color: { type: 'string', title: 'Colour', oneOf: [{ const: 'r', title: 'Red' }, { const: 'b', title: 'Blue' }], default: 'b' },
    ok: { type: 'boolean', title: 'Agree' },
    password: { type: 'string', title: 'Password' },
  },
  required: ['age'],
} as unknown as RequestedSchema;

const question = (): FormQuestion => ({ server: 'asks', role: 'ops', duringCall: ['ask_form'], message: 'Tell us about yourself', form: new ElicitationForm(schema) });

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (d: string) => (shown += d));
  return { input, output, shown: () => shown };
}

describe('cli TerminalPrompter', () => {
  const signal = new AbortController().signal;

  it('shows who asks and why, then asks field by field (Enter keeps a default, bad values are asked again)', async () => {
    const t = terminal();
    const answer = new TerminalPrompter(t, {}).askForm(question(), signal);
    t.input.write('y\n\n200\n42\nred\nyes\nhunter2\n');
    assert.deepEqual(await answer, { action: 'accept', content: { name: 'Ada', age: 42, color: 'r', ok: true, password: 'hunter2' } });
    const shown = t.shown();
    assert.match(shown, /server "asks" asks you for information \(during its tool call ask_form\)/);
    assert.match(shown, /role: +ops/);
    assert.match(shown, /message \(from the server\): Tell us about yourself/);
    assert.match(shown, /Name \(text\) \[Ada\]: /);
    assert.match(shown, /Age \* \(a whole number from 0 to 150\): /);
    assert.match(shown, / {4}Age: must be <= 150\n/);
    assert.match(shown, /Colour \(one of 1\) Red, 2\) Blue\) \[Blue\]: /);
    assert.match(shown, /Password \(text, not shown\): /);
    assert.ok(!shown.includes('hunter2'), 'a secret field is not echoed');
  });

  for (const [typed, action] of [
    ['n\n', 'decline'],
    ['c\n', 'cancel'],
    ['\n', 'cancel'],
  ] as const) {
    it(`answer ${JSON.stringify(typed)} to "Answer?" → ${action}`, async () => {
      const t = terminal();
      const answer = new TerminalPrompter(t, {}).askForm(question(), signal);
      t.input.write(typed);
      assert.deepEqual(await answer, { action });
    });
  }

  it('end of input (before or during the form) is a decline', async () => {
    const t = terminal();
    const answer = new TerminalPrompter(t, {}).askForm(question(), signal);
    t.input.end('y\n\n');
    assert.deepEqual(await answer, { action: 'decline' });
  });

  it('a withdrawn question ends the prompt', async () => {
    const t = terminal();
    const abort = new AbortController();
    const answer = new TerminalPrompter(t, {}).askForm(question(), abort.signal);
    abort.abort();
    assert.deepEqual(await answer, { action: 'decline' });
  });

  it('URL: shows the exact URL, y opens it (printed without $BROWSER), anything else declines', async () => {
    const url: UrlQuestion = { server: 'asks', duringCall: [], message: 'Link your account', url: 'https://example.org/x?y=1', origin: 'https://example.org', elicitationId: 'e' };
    const t = terminal();
    const prompter = new TerminalPrompter(t, {});
    const answer = prompter.askUrl(url, signal);
    t.input.write('y\n');
    assert.deepEqual(await answer, { action: 'accept' });
    assert.match(t.shown(), /Site: https:\/\/example\.org\n {2}URL: https:\/\/example\.org\/x\?y=1\n/);
    await prompter.openUrl(url.url);
    assert.match(t.shown(), /open this URL in your browser: https:\/\/example\.org\/x\?y=1/);

    const t2 = terminal();
    const declined = new TerminalPrompter(t2, {}).askUrl(url, signal);
    t2.input.write('\n');
    assert.deepEqual(await declined, { action: 'decline' });
  });
});
