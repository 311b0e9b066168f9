/** The agents `mcp-host serve --print-config` writes an entry for. */
export const CONFIG_TARGETS = ['claude-code', 'vscode', 'copilot-cli'] as const;
export type ConfigTarget = (typeof CONFIG_TARGETS)[number];

/** Where each target reads the entry. */
const WHERE: Record<ConfigTarget, string> = {
  'claude-code': '.mcp.json in the project folder (Claude Code; VS Code reads the same portable file)',
  vscode: '.vscode/mcp.json in the workspace',
  'copilot-cli': '~/.copilot/mcp-config.json (Copilot CLI)',
};

/**
 * The one governed entry that replaces a team's direct server entries: the agent starts
 * `mcp-host serve --stdio` in the workspace, with the role when one is named. `.mcp.json` and
 * `.vscode/mcp.json` are committed with the project, so they name no absolute path (the agent
 * starts servers in the project folder; VS Code resolves `${workspaceFolder}`); Copilot CLI's
 * configuration is the user's own, so it names the workspace folder.
 */
export function serveConfig(target: ConfigTarget, o: { readonly role?: string; readonly workspace: string }): { readonly where: string; readonly json: unknown } {
  const role = o.role !== undefined ? ['--role', o.role] : [];
  const args = (workspace?: string) => ['serve', '--stdio', ...(workspace ? ['--workspace', workspace] : []), ...role];
  switch (target) {
    case 'claude-code':
      return { where: WHERE[target], json: { mcpServers: { 'mcp-host': { type: 'stdio', command: 'mcp-host', args: args() } } } };
    case 'vscode':
      return { where: WHERE[target], json: { servers: { 'mcp-host': { type: 'stdio', command: 'mcp-host', args: args('${workspaceFolder}') } } } };
    case 'copilot-cli':
      return { where: WHERE[target], json: { mcpServers: { 'mcp-host': { type: 'local', command: 'mcp-host', args: args(o.workspace), tools: ['*'] } } } };
  }
}
