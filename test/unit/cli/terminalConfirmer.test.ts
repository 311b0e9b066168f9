/** The y/N prompt, driven through in-memory streams. */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { ConfirmationRequest } from '../../../src/core/calls/confirmer';
import { DenyingConfirmer } from '../../../src/cli/denyingConfirmer';
import { formatConfirmation, TerminalConfirmer } from '../../../src/cli/terminalConfirmer';

const request: ConfirmationRequest = {
  role: 'operations',
  name: 'memory__delete_entities',
  server: 'memory',
  tool: 'delete_entities',
  description: 'Delete multiple entities',
  args: { entityNames: ['Alice'] },
  annotations: { readOnlyHint: false, destructiveHint: true },
};

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.setEncoding('utf8').on('data', (d: string) => (shown += d));
  return { input, output, shown: () => shown };
}

describe('cli TerminalConfirmer', () => {
  it('shows tool, server, arguments and the annotations as the server\'s claims', () => {
    const text = formatConfirmation(request);
    assert.match(text, /tool: +memory__delete_entities/);
    assert.match(text, /server: +memory \(its tool "delete_entities"\)/);
    assert.match(text, /role: +operations/);
    assert.match(text, /arguments:\n {4}\{\n {6}"entityNames": \[\n {8}"Alice"/);
    assert.match(text, /the server's own claims about this tool \(annotations; not verified/);
    assert.match(text, /destructiveHint: true/);
    assert.match(formatConfirmation({ ...request, annotations: undefined }), /annotations\): none/);
    const rule = { setting: 'mcpHost.roles.ops.rules[0]', action: 'confirm' as const, reason: 'deletes people', error: 'No such key: x' };
    const withRule = formatConfirmation({ ...request, rule });
    assert.match(withRule, /\n {2}rule: {7}mcpHost\.roles\.ops\.rules\[0\]: deletes people\n/);
    assert.match(withRule, /it could not decide, so it asks: No such key: x/);
  });

  for (const [typed, expected] of [
    ['y\n', 'once'],
    ['YES\n', 'once'],
    ['n\n', 'deny'],
    ['\n', 'deny'],
    ['sure\n', 'deny'],
  ] as const) {
    it(`answer ${JSON.stringify(typed)} → ${expected}`, async () => {
      const t = terminal();
      const answer = new TerminalConfirmer(t).confirm(request);
      t.input.write(typed);
      assert.equal(await answer, expected);
      assert.match(t.shown(), /Run this call\? \[y\/N\] /);
    });
  }

  it('end of input or an abort is a denial', async () => {
    const t = terminal();
    const answer = new TerminalConfirmer(t).confirm(request);
    t.input.end();
    assert.equal(await answer, 'deny');

    const t2 = terminal();
    const abort = new AbortController();
    const answer2 = new TerminalConfirmer(t2).confirm(request, abort.signal);
    abort.abort();
    assert.equal(await answer2, 'deny');
  });

  it('DenyingConfirmer denies with a hint', async () => {
    let hint = '';
    const c = new DenyingConfirmer('nobody is there', (t) => (hint += t));
    assert.equal(await c.confirm(request), 'deny');
    assert.match(hint, /"memory__delete_entities" needs confirmation and nobody is there: denied \(pass --yes/);
  });
});
