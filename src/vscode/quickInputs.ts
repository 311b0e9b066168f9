import * as vscode from 'vscode';

/** Quick-input steps that end (as undefined) when the user presses Escape or the question is withdrawn. */

export interface TextStep {
  readonly title: string;
  readonly prompt: string;
  readonly placeholder?: string;
  readonly value?: string;
  readonly password?: boolean;
  /** An error message for the text, or undefined when it is acceptable. */
  readonly validate: (text: string) => string | undefined;
}

export function askText(step: TextStep, signal: AbortSignal): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = step.title;
  box.prompt = step.prompt;
  box.placeholder = step.placeholder;
  box.value = step.value ?? '';
  box.password = step.password ?? false;
  box.ignoreFocusOut = true;
  const check = () => {
    const error = step.validate(box.value);
    box.validationMessage = error ? { message: error, severity: vscode.InputBoxValidationSeverity.Error } : undefined;
    return !error;
  };
  return run(box, signal, (done, d) => {
    d.push(box.onDidChangeValue(check));
    d.push(box.onDidAccept(() => check() && done(box.value)));
  });
}

export interface PickStep<T> {
  readonly title: string;
  readonly placeholder: string;
  readonly items: readonly (vscode.QuickPickItem & { readonly value: T })[];
  readonly many?: boolean;
  readonly selected?: readonly T[];
}

export function pick<T>(step: PickStep<T>, signal: AbortSignal): Promise<T[] | undefined> {
  const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { readonly value: T }>();
  qp.title = step.title;
  qp.placeholder = step.placeholder;
  qp.items = step.items;
  qp.canSelectMany = step.many ?? false;
  qp.ignoreFocusOut = true;
  const chosen = step.items.filter((i) => step.selected?.includes(i.value));
  if (qp.canSelectMany) qp.selectedItems = chosen;
  else if (chosen.length) qp.activeItems = chosen;
  return run(qp, signal, (done, d) => {
    d.push(qp.onDidAccept(() => done((qp.canSelectMany ? qp.selectedItems : qp.activeItems).map((i) => i.value))));
  });
}

function run<R>(input: vscode.QuickInput, signal: AbortSignal, wire: (done: (r: R) => void, d: vscode.Disposable[]) => void): Promise<R | undefined> {
  return new Promise((resolve) => {
    const d: vscode.Disposable[] = [];
    let settled = false;
    const finish = (r: R | undefined) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      for (const x of d) x.dispose();
      input.dispose();
      resolve(r);
    };
    const onAbort = () => finish(undefined);
    wire((r) => finish(r), d);
    d.push(input.onDidHide(() => finish(undefined)));
    if (signal.aborted) return finish(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    input.show();
  });
}
