import type { CommandName } from './parseArgs';

/** One-line synopsis of each command, shown after a usage error. */
export const USAGE: Record<CommandName, string> = {
  check: 'mcp-host check [--workspace DIR] [--role NAME] [--locked] [--yes | --allow-servers] [--json] [--login] [--verbose]',
  call: 'mcp-host call NAME [--args JSON] [--workspace DIR] [--role NAME] [--yes | --allow-servers] [--audit FILE] [--timeout MS] [--json] [--login] [--verbose]',
  session: 'mcp-host session [--workspace DIR] [--role NAME] [--yes | --allow-servers] [--audit FILE] [--timeout MS] [--login] [--verbose]',
  serve: 'mcp-host serve [--stdio | --http [--port N] [--token-file PATH]] [--workspace DIR] [--role NAME] [--allow-servers] [--audit FILE] [--timeout MS] [--verbose] | serve --print-config claude-code|vscode|copilot-cli [--role NAME]',
  login: 'mcp-host login NAME [--workspace DIR] [--audit FILE] [--verbose]',
  logout: 'mcp-host logout NAME [--workspace DIR] [--audit FILE] [--verbose]',
  lock: 'mcp-host lock [--workspace DIR] [--role NAME] [--yes | --allow-servers] [--verbose]',
  allow: 'mcp-host allow [NAME…] [--workspace DIR] [--audit FILE] [--verbose]',
  'audit verify': 'mcp-host audit verify [FILE…] [--workspace DIR] [--allow-unanchored] [--json]',
  'audit export': 'mcp-host audit export [FILE…] [--workspace DIR] [--since DATE] [--server NAME] [--kind KIND] [--outcome OUTCOME] [--format jsonl|csv]',
};

/** What follows a usage error on stderr. */
export function usageHint(command?: CommandName): string {
  if (command) return `usage: ${USAGE[command]}\nRun "mcp-host ${command} --help" for details.`;
  return `usage: mcp-host <check|call|session|serve|login|logout|lock|allow|audit verify|audit export> [options]\nRun "mcp-host --help" for details.`;
}
