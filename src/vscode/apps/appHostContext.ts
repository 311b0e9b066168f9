import type { McpUiHostContext, McpUiStyleVariableKey, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ViewTheme } from './webviewTransport';

/**
 * The MCP Apps style variables (the spec's standard names) from the editor's own colours and
 * fonts: each is the value of the `--vscode-*` variable the webview computed, so a view looks like
 * the editor around it and follows a theme change.
 */
const FROM_EDITOR: Readonly<Partial<Record<McpUiStyleVariableKey, string>>> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-background-tertiary': '--vscode-editorWidget-background',
  '--color-background-inverse': '--vscode-editor-foreground',
  '--color-background-info': '--vscode-inputValidation-infoBackground',
  '--color-background-danger': '--vscode-inputValidation-errorBackground',
  '--color-background-warning': '--vscode-inputValidation-warningBackground',
  '--color-background-disabled': '--vscode-input-background',
  '--color-text-primary': '--vscode-editor-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-tertiary': '--vscode-disabledForeground',
  '--color-text-inverse': '--vscode-editor-background',
  '--color-text-info': '--vscode-editorInfo-foreground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-success': '--vscode-testing-iconPassed',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-text-disabled': '--vscode-disabledForeground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-border-secondary': '--vscode-widget-border',
  '--color-border-danger': '--vscode-inputValidation-errorBorder',
  '--color-border-info': '--vscode-inputValidation-infoBorder',
  '--color-border-warning': '--vscode-inputValidation-warningBorder',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-weight-normal': '--vscode-font-weight',
  '--font-text-md-size': '--vscode-font-size',
};

/** The theme part of the host context: `theme` and `styles.variables` from what the webview computed. */
export function themeContext(theme: ViewTheme): Pick<McpUiHostContext, 'theme' | 'styles'> {
  const variables: Partial<McpUiStyles> = {};
  for (const [key, source] of Object.entries(FROM_EDITOR) as [McpUiStyleVariableKey, string][]) {
    const value = theme.variables[source]?.trim();
    if (value) variables[key] = value;
  }
  return { theme: theme.kind, styles: { variables: variables as McpUiStyles } };
}
