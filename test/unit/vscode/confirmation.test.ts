import { window } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type { ConfirmationRequest } from '../../../src/core/calls/confirmer';
import { annotationClaims, annotationClaimsSentence } from '../../../src/vscode/annotationClaims';
import { CONFIRMATION_LIMITS, confirmationMessage, formatArguments } from '../../../src/vscode/confirmationMessage';
import { ALLOW, ALLOW_FOR_SESSION, ModalConfirmer, answerOf } from '../../../src/vscode/modalConfirmer';

const request: ConfirmationRequest = {
  role: 'operations',
  name: 'coupons__issue_coupon',
  server: 'coupons',
  tool: 'issue_coupon',
  title: 'Issue a coupon',
  args: { customer: 'c-42', amount: 10 },
  annotations: { destructiveHint: true, readOnlyHint: false },
};

describe('confirmation message', () => {
  it('names the tool and the server', () => {
    const { message } = confirmationMessage(request);
    assert.equal(message, 'Allow the tool "issue_coupon" (Issue a coupon) of MCP server "coupons" to run?');
  });

  it('shows the arguments as pretty JSON and the annotations as the server\'s claims', () => {
    const { detail } = confirmationMessage(request);
    assert.ok(detail.includes('Exposed to the model as "coupons__issue_coupon".'));
    assert.ok(detail.includes('Role: operations'));
    assert.ok(detail.includes('{\n  "customer": "c-42",\n  "amount": 10\n}'));
    assert.ok(detail.includes('The server claims: not read-only, destructive.'));
    assert.ok(detail.includes('not because of these claims'));
  });

  it('says when the server claims nothing, and omits a title equal to the tool name', () => {
    const { message, detail } = confirmationMessage({ ...request, title: 'issue_coupon', annotations: undefined, role: undefined, name: 'issue_coupon' });
    assert.equal(message, 'Allow the tool "issue_coupon" of MCP server "coupons" to run?');
    assert.ok(detail.includes('The server makes no claims about this tool (no annotations).'));
    assert.ok(!detail.includes('Role:'));
    assert.ok(!detail.includes('Exposed to the model'));
  });

  it('cuts long strings, long arrays, deep nesting and the whole block', () => {
    const long = 'x'.repeat(500);
    const text = formatArguments({ long, list: Array.from({ length: 30 }, (_, i) => i), deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } });
    assert.ok(text.includes(`"${'x'.repeat(CONFIRMATION_LIMITS.stringChars)}… (300 more characters)"`));
    assert.ok(text.includes('"… 10 more items"'));
    assert.ok(text.includes('"{…}"'));
    const huge = formatArguments(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, 'v'.repeat(100)])));
    assert.ok(huge.length <= CONFIRMATION_LIMITS.argumentsChars);
    assert.match(huge, /… \(arguments cut: \d+ characters in total\)$/);
    const { detail } = confirmationMessage({ ...request, args: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, 'v'.repeat(100)])) });
    assert.ok(detail.length <= CONFIRMATION_LIMITS.detailChars);
    assert.ok(detail.includes('The server claims:'), 'the claims survive a long argument list');
  });

  it('names who asks when it is not the model: an app view (and its tool), a gateway client', () => {
    assert.doesNotMatch(confirmationMessage(request).detail, /Asked by/);
    const app = confirmationMessage({ ...request, actor: { kind: 'app', server: 'coupons', view: 'ui://coupons/form.html', tool: 'show_form' } }).detail;
    assert.match(app, /^Asked by the app view ui:\/\/coupons\/form\.html of MCP server "coupons" \(the view of its tool "show_form"\), not by the model\.\n/);
    const upstream = confirmationMessage({ ...request, actor: { kind: 'upstream', client: 'claude-code', version: '2.1', transport: 'http' } }).detail;
    assert.match(upstream, /^Asked by upstream claude-code 2\.1 \(http\), not by the model\./);
  });

  it('shows "(none)" for no arguments', () => {
    assert.equal(formatArguments({}), '(none)');
  });

  it('describes every annotation flag', () => {
    assert.equal(annotationClaims(undefined), undefined);
    assert.equal(annotationClaims({ title: 'x' }), undefined);
    assert.equal(
      annotationClaims({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
      'read-only, not destructive, idempotent, closed world',
    );
    assert.equal(annotationClaimsSentence({ openWorldHint: true }), 'The server claims: reaches outside systems (open world).');
  });
});

describe('ModalConfirmer', () => {
  const original = window.showWarningMessage;
  afterEach(() => (window.showWarningMessage = original));

  it('maps the buttons: Allow → once, Allow for This Session → session, dismissed → deny', () => {
    assert.equal(answerOf(ALLOW), 'once');
    assert.equal(answerOf(ALLOW_FOR_SESSION), 'session');
    assert.equal(answerOf(undefined), 'deny');
    assert.equal(answerOf('Cancel'), 'deny');
  });

  it('asks with a modal warning carrying the detail and both buttons', async () => {
    let seen: unknown[] = [];
    window.showWarningMessage = async (...args: unknown[]) => {
      seen = args;
      return ALLOW_FOR_SESSION;
    };
    assert.equal(await new ModalConfirmer().confirm(request), 'session');
    assert.equal(seen[0], confirmationMessage(request).message);
    assert.deepEqual(seen[1], { modal: true, detail: confirmationMessage(request).detail });
    assert.deepEqual(seen.slice(2), [ALLOW, ALLOW_FOR_SESSION]);
  });

  it('a question raised by an argument rule names the rule and offers no "for this session"', async () => {
    const rule = { setting: 'mcpHost.rules[1]', action: 'confirm' as const, reason: 'refund over 50' };
    let seen: unknown[] = [];
    window.showWarningMessage = async (...args: unknown[]) => {
      seen = args;
      return ALLOW;
    };
    assert.equal(await new ModalConfirmer().confirm({ ...request, rule }), 'once');
    assert.deepEqual(seen.slice(2), [ALLOW]);
    const { detail } = confirmationMessage({ ...request, rule });
    assert.ok(detail.startsWith('Asked because of rule mcpHost.rules[1]: refund over 50\n'), detail);
    assert.ok(detail.includes('MCP Host asks because of the rule above (mcpHost.rules[1])'));
    const failed = confirmationMessage({ ...request, rule: { ...rule, error: 'No such key: amount' } }).detail;
    assert.ok(failed.includes('(the rule could not decide, so it asks: No such key: amount)'));
  });

  it('lets a refused dialog propagate (the router denies and logs it)', async () => {
    window.showWarningMessage = async () => {
      throw new Error('DialogService: refused to show dialog in tests');
    };
    await assert.rejects(new ModalConfirmer().confirm(request), /refused to show dialog/);
  });
});
