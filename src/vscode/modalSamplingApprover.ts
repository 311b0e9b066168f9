import * as vscode from 'vscode';
import type { SampledAnswer, SamplingApprover, SamplingQuestion } from '../core/requests/sampler';
import { RETURN_ANSWER, REFUSE, SEND_TO_MODEL, samplingAnswerDialog, samplingRequestDialog } from './serverRequestMessages';

/** Two modals: the request (server, messages, system prompt, max tokens) before it is sent, the answer before it goes back. */
export class ModalSamplingApprover implements SamplingApprover {
  async approveRequest(q: SamplingQuestion, model: string): Promise<boolean> {
    const { message, detail } = samplingRequestDialog(q, model);
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, SEND_TO_MODEL, REFUSE)) === SEND_TO_MODEL;
  }

  async approveAnswer(q: SamplingQuestion, answer: SampledAnswer): Promise<boolean> {
    const { message, detail } = samplingAnswerDialog(q, answer);
    return (await vscode.window.showInformationMessage(message, { modal: true, detail }, RETURN_ANSWER, REFUSE)) === RETURN_ANSWER;
  }
}
