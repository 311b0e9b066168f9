import * as vscode from 'vscode';
import type { FormField } from '../core/requests/elicitationForm';
import type { ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../core/requests/elicitationPrompter';
import { fieldInputHint, fieldInputText, parseFieldInput } from '../core/requests/formFieldInput';
import { askText, pick } from './quickInputs';
import { DECLINE, FILL_IN, formDialog, OPEN_URL, urlDialog } from './serverRequestMessages';

const SKIP = Symbol('leave empty');

/**
 * A server's question in the editor: a modal says which server asks, why, and for what; then one
 * quick input per field (an input box for text and numbers, validated as you type; a pick list for
 * yes/no and choices), defaults pre-filled. Escape on any step cancels. A URL is shown in a modal
 * and opened only after "Open URL". A dialog the workbench refuses throws: the core declines.
 */
export class InputFlowPrompter implements ElicitationPrompter {
  async askForm(q: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    const { message, detail } = formDialog(q);
    const choice = await vscode.window.showInformationMessage(message, { modal: true, detail }, FILL_IN, DECLINE);
    if (choice === DECLINE) return { action: 'decline' };
    if (choice !== FILL_IN || signal.aborted) return { action: 'cancel' };
    const content: Record<string, unknown> = {};
    const fields = q.form.fields;
    for (const [i, field] of fields.entries()) {
      const title = `MCP server "${q.server}" asks (${i + 1}/${fields.length})`;
      const value = await this.askField(q, field, title, signal);
      if (value === undefined) return { action: 'cancel' };
      if (value !== SKIP) content[field.name] = value;
    }
    return { action: 'accept', content };
  }

  async askUrl(q: UrlQuestion): Promise<UrlAnswer> {
    const { message, detail } = urlDialog(q);
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, OPEN_URL, DECLINE);
    return { action: choice === OPEN_URL ? 'accept' : choice === DECLINE ? 'decline' : 'cancel' };
  }

  async openUrl(url: string): Promise<void> {
    if (!(await vscode.env.openExternal(vscode.Uri.parse(url, true)))) throw new Error('the editor did not open the URL');
  }

  /** The field's value, SKIP to leave it out, undefined when the user escaped. */
  private async askField(q: FormQuestion, field: FormField, title: string, signal: AbortSignal): Promise<unknown> {
    const label = `${field.label}${field.required ? ' (required)' : ''}${field.description ? ` — ${field.description}` : ''}`;
    if (field.kind === 'boolean' || field.kind === 'choice' || field.kind === 'choices') {
      const options =
        field.kind === 'boolean'
          ? [
              { value: true as unknown, label: 'Yes' },
              { value: false as unknown, label: 'No' },
            ]
          : (field.options ?? []).map((o) => ({ value: o.value as unknown, label: o.label, description: o.label !== o.value ? o.value : undefined }));
      const items = field.required || field.kind === 'choices' ? options : [...options, { value: SKIP as unknown, label: '(leave empty)' }];
      const selected = Array.isArray(field.default) ? field.default : field.default !== undefined ? [field.default] : [];
      for (let error: string | undefined; ; ) {
        const picked = await pick({ title, placeholder: error ?? label, items, many: field.kind === 'choices', selected }, signal);
        if (!picked) return undefined;
        const value = field.kind === 'choices' ? picked : picked[0];
        if (value === undefined) continue;
        if (value === SKIP) return SKIP;
        error = q.form.fieldError(field.name, value);
        if (!error) return value;
      }
    }
    const valueOf = (text: string) => {
      const parsed = parseFieldInput(field, text);
      if (!parsed.ok) return { error: parsed.error };
      const value = parsed.value ?? field.default;
      return { value, error: q.form.fieldError(field.name, value) };
    };
    const text = await askText(
      {
        title,
        prompt: label,
        placeholder: fieldInputHint(field),
        value: field.secret ? '' : fieldInputText(field, field.default),
        password: field.secret,
        validate: (t) => valueOf(t).error,
      },
      signal,
    );
    if (text === undefined) return undefined;
    const { value } = valueOf(text);
    return value === undefined ? SKIP : value;
  }
}
