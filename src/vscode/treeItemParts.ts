import * as vscode from 'vscode';

export const COLOR = {
  ok: 'testing.iconPassed',
  warn: 'problemsWarningIcon.foreground',
  error: 'problemsErrorIcon.foreground',
  dim: 'disabledForeground',
} as const;

export function icon(id: string, color?: string): vscode.ThemeIcon {
  return color ? new vscode.ThemeIcon(id, new vscode.ThemeColor(color)) : new vscode.ThemeIcon(id);
}

/** Untrusted markdown: server-provided text never runs commands or HTML. */
export function markdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
