import * as vscode from 'vscode';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '../core/calls/confirmer';
import { confirmationMessage } from './confirmationMessage';

export const ALLOW = 'Allow';
export const ALLOW_FOR_SESSION = 'Allow for This Session';

/**
 * Asks with a modal warning. Dismissing is a denial. A failure to show the dialog (e.g. the
 * workbench refusing dialogs in tests) propagates: the core's router logs it and denies.
 */
export class ModalConfirmer implements Confirmer {
  async confirm(request: ConfirmationRequest): Promise<ConfirmationAnswer> {
    const { message, detail } = confirmationMessage(request);
    // A question raised by an argument rule is about these arguments: no "for this session".
    const choices = request.rule ? [ALLOW] : [ALLOW, ALLOW_FOR_SESSION];
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices);
    return answerOf(answer);
  }
}

export function answerOf(choice: string | undefined): ConfirmationAnswer {
  if (choice === ALLOW) return 'once';
  if (choice === ALLOW_FOR_SESSION) return 'session';
  return 'deny';
}
