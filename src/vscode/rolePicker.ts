import * as vscode from 'vscode';
import type { RoleSettings } from '../core/settings/hostSettings';
import type { RoleSource } from './personalRole';

export const NO_ROLE_LABEL = '(no role)';

export interface RolePickItem extends vscode.QuickPickItem {
  /** undefined = no role. */
  readonly role: string | undefined;
  /** The item that forgets the person's choice (the team's default applies again). */
  readonly teamDefault?: true;
}

/**
 * Quick pick items: "(no role)" first, then every role with its description and servers; the
 * active one marked. When the person's own choice is in effect, "Use the team's default" comes first.
 */
export function rolePickItems(roles: readonly RoleSettings[], active: string | undefined, source?: RoleSource): RolePickItem[] {
  const mark = (isActive: boolean) => (isActive ? ' $(check)' : '');
  const useDefault: RolePickItem[] = source?.personal
    ? [
        {
          label: `$(discard) Use the team's default: ${source.teamDefault ?? NO_ROLE_LABEL}`,
          description: 'mcpHost.activeRole in the workspace settings',
          role: source.teamDefault,
          teamDefault: true,
        },
      ]
    : [];
  return [
    ...useDefault,
    {
      label: `${NO_ROLE_LABEL}${mark(active === undefined)}`,
      description: 'every enabled server, every tool',
      role: undefined,
    },
    ...roles.map((r) => ({
      label: `${r.name}${mark(r.name === active)}`,
      description: r.description ?? '',
      detail: r.servers ? `servers: ${r.servers.length ? r.servers.join(', ') : 'none'}` : 'servers: all enabled',
      role: r.name,
    })),
  ];
}

/** Ask for a role; undefined when cancelled, `{ role: undefined }` for no role, `teamDefault: true` for "use the team's default". */
export async function pickRole(
  roles: readonly RoleSettings[],
  active: string | undefined,
  source?: RoleSource,
): Promise<{ role: string | undefined; teamDefault?: true } | undefined> {
  const picked = await vscode.window.showQuickPick(rolePickItems(roles, active, source), {
    title: 'MCP Host: Select Role',
    placeHolder: `Active: ${active ?? NO_ROLE_LABEL}. Your choice is kept for you in this workspace; the workspace setting mcpHost.activeRole stays the team's default.`,
    matchOnDescription: true,
  });
  return picked ? { role: picked.role, ...(picked.teamDefault ? { teamDefault: true as const } : {}) } : undefined;
}
