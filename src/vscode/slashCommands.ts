import type { ServerView } from '../core/host/hostSnapshot';
import { firstLine } from '../core/util/text';
import { escapeMarkdown } from './escapeMarkdown';

/** The chat participant's slash commands and the markdown they answer with (pure, for tests). */
export const SLASH_COMMANDS = ['role', 'tools', 'servers', 'resources', 'prompt'] as const;
export type SlashCommand = (typeof SLASH_COMMANDS)[number];

/** Argument of `/role` that selects "no role" (unless a role has that name). */
export const NO_ROLE_ARGUMENT = 'none';

export interface RoleSummary {
  readonly name: string;
  readonly description?: string;
  readonly servers?: readonly string[];
}

export interface ToolSummary {
  /** Exposed name. */
  readonly name: string;
  readonly server: string;
  readonly rule: 'ask' | 'auto';
  readonly description?: string;
}

export type ServerSummary = Pick<ServerView, 'name' | 'description' | 'connected' | 'usedByRole' | 'toolCount'> &
  Partial<Pick<ServerView, 'needsSignIn'>> & {
    /** `source`: the file an imported server comes from. */
    readonly settings?: Pick<ServerView['settings'], 'source'>;
  };

export function roleLabel(role: string | undefined): string {
  return role ? `**${escapeMarkdown(role)}**` : '_no role_ (every enabled server, every tool)';
}

export function rolesMarkdown(roles: readonly RoleSummary[], active: string | undefined): string {
  const lines = [`Active role: ${roleLabel(active)}`, ''];
  if (roles.length === 0) {
    lines.push('No roles are configured. Define them under `mcpHost.roles` in the workspace settings.');
    return lines.join('\n');
  }
  lines.push('Roles:');
  for (const r of roles) {
    const mark = r.name === active ? ' ← active' : '';
    const desc = r.description ? ` — ${escapeMarkdown(r.description)}` : '';
    const servers = r.servers ? ` (servers: ${r.servers.length ? r.servers.map(escapeMarkdown).join(', ') : 'none'})` : ' (all servers)';
    lines.push(`- \`${r.name}\`${desc}${servers}${mark}`);
  }
  lines.push('', `Switch with \`/role NAME\`; \`/role ${NO_ROLE_ARGUMENT}\` selects no role.`);
  return lines.join('\n');
}

export function toolsMarkdown(role: string | undefined, tools: readonly ToolSummary[], notes: readonly string[] = [], budget?: string): string {
  const lines = [`Tools of ${roleLabel(role)}: ${tools.length}`, ''];
  if (budget) lines.push(`Budget: ${escapeMarkdown(budget)}`, '');
  if (tools.length) {
    lines.push('| Tool | Server | Confirmation | Description |', '| --- | --- | --- | --- |');
    for (const t of tools) {
      const rule = t.rule === 'auto' ? 'auto' : 'asks';
      lines.push(`| \`${t.name}\` | ${escapeMarkdown(t.server)} | ${rule} | ${escapeMarkdown(firstLine(t.description))} |`);
    }
  } else {
    lines.push('No tools are available to this role right now.');
  }
  for (const n of notes) lines.push('', n);
  return lines.join('\n');
}

/** A quarantined tool as `/tools` lists it: its name, server and why (never its new definition). */
export interface QuarantinedSummary {
  readonly name: string;
  readonly server: string;
  readonly message: string;
}

/** The note `/tools` adds for quarantined tools. */
export function quarantineNote(items: readonly QuarantinedSummary[]): string[] {
  if (!items.length) return [];
  const lines = [`Quarantined, offered to no role until a person reviews them (**MCP Host: Review Tool Changes…**):`];
  for (const q of items) lines.push(`- \`${q.name}\` (${escapeMarkdown(q.server)}): ${escapeMarkdown(q.message)}`);
  return [lines.join('\n')];
}

export function serversMarkdown(role: string | undefined, servers: readonly ServerSummary[], trusted: boolean): string {
  const lines = [`Servers (role: ${roleLabel(role)}):`, ''];
  if (!trusted) lines.push('⚠ This workspace is not trusted: MCP Host starts no servers until you trust it.', '');
  if (servers.length === 0) {
    lines.push('No servers are configured. Add them under `mcpHost.servers` in the workspace settings, or in `.vscode/mcp.json` / `.mcp.json`.');
    return lines.join('\n');
  }
  for (const s of servers) {
    const used = s.usedByRole ? '' : ' — not used by this role';
    const tools = s.connected ? `, ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}` : '';
    const signIn = s.needsSignIn ? ' — use **Sign In** on it in the MCP Host view (or the command "MCP Host: Sign In")' : '';
    const from = s.settings?.source ? ` (from \`${s.settings.source}\`)` : '';
    lines.push(`- \`${s.name}\`${from}: ${escapeMarkdown(s.description)}${tools}${used}${signIn}`);
  }
  return lines.join('\n');
}

/** Parse `/role` arguments: undefined = list; null = no role; a string = that role. */
export function parseRoleArgument(prompt: string, roleNames: readonly string[]): string | null | undefined {
  const arg = prompt.trim();
  if (!arg) return undefined;
  if (roleNames.includes(arg)) return arg;
  if (arg === NO_ROLE_ARGUMENT || arg === '(no role)') return null;
  return arg;
}
