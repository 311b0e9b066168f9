import * as vscode from 'vscode';
import { consentChanges, type ConsentAnswer, type ConsentPrompt, type ConsentRequest } from '../core/consent/serverConsent';
import { describeIdentity } from '../core/pinning/serverIdentity';

export const ALLOW_START = 'Allow';
export const DENY_START = "Don't Allow";

/** The question and its detail: the exact command (or URL), and what was allowed before when it changed. */
export function consentMessage(r: ConsentRequest): { message: string; detail: string } {
  const lines = describeIdentity(r.identity);
  const changes = consentChanges(r);
  if (changes.length) lines.push('', ...changes.map((l) => l[0].toUpperCase() + l.slice(1) + '.'));
  if (r.previous) lines.push('', 'It was allowed before with:', ...describeIdentity(r.previous));
  lines.push('', 'It runs with your permissions. Your answer is kept for this workspace (not in the repository).');
  return {
    message:
      r.previous || changes.length ? `The command of MCP server "${r.server}" changed. Allow it to start?` : `Allow the MCP server "${r.server}" of this workspace to start?`,
    detail: lines.join('\n'),
  };
}

/**
 * Asks with a modal warning before a server starts. "Don't Allow" is kept; closing the dialog is
 * no answer (asked again next time). A failure to show it (the workbench refusing dialogs) is not
 * consent: the core does not start the server.
 */
export class ModalConsentPrompt implements ConsentPrompt {
  async ask(request: ConsentRequest): Promise<ConsentAnswer> {
    const { message, detail } = consentMessage(request);
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW_START, DENY_START);
    return choice === ALLOW_START ? 'allow' : choice === DENY_START ? 'deny' : 'dismiss';
  }
}

/** Extension tests only (the test driver refuses dialogs): MCP_HOST_TEST_CONSENT=allow answers "allow". */
export function testConsentPrompt(mode: vscode.ExtensionMode): ConsentPrompt | undefined {
  return mode === vscode.ExtensionMode.Test && process.env.MCP_HOST_TEST_CONSENT === 'allow' ? { ask: async () => 'allow' } : undefined;
}
