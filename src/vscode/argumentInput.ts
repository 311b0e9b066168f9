import * as vscode from 'vscode';

export interface ArgumentQuestion {
  readonly title: string;
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  /** Values the server suggests for what is typed so far (`completion/complete`); absent: a plain input box. */
  readonly complete?: (value: string) => Promise<readonly string[]>;
}

/**
 * Ask for one argument: an input box, or a quick pick whose items follow the server's completions
 * as the user types (any typed value may be used). Undefined when the user cancels; '' for a
 * skipped optional argument.
 */
export function askArgument(q: ArgumentQuestion): Promise<string | undefined> {
  const placeHolder = `${q.name}${q.description ? `: ${q.description}` : ''}${q.required ? '' : ' (optional, Enter to skip)'}`;
  if (!q.complete) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: q.title,
        prompt: placeHolder,
        placeHolder: q.name,
        ignoreFocusOut: true,
        validateInput: (v) => (q.required && !v.trim() ? `"${q.name}" is required` : undefined),
      }),
    );
  }
  const complete = q.complete;
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    pick.title = q.title;
    pick.placeholder = placeHolder;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    let done = false;
    let asked = 0;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      pick.dispose();
      resolve(value);
    };
    const suggest = async (value: string) => {
      const ticket = ++asked;
      pick.busy = true;
      const values = await complete(value).catch(() => [] as readonly string[]);
      if (ticket !== asked || done) return;
      pick.busy = false;
      const typed = value && !values.includes(value) ? [{ label: value, description: 'as typed' }] : [];
      pick.items = [...typed, ...values.map((v) => ({ label: v }))];
    };
    pick.onDidChangeValue((v) => void suggest(v));
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.label ?? pick.value;
      if (q.required && !value.trim()) return;
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    void suggest('');
    pick.show();
  });
}
