import * as vscode from 'vscode';
import type { RoleSettings } from '../core/settings/hostSettings';

export const NO_ROLE_LABEL = '(no role)';

export interface RolePickItem extends vscode.QuickPickItem {
  /** undefined = no role. */
  readonly role: string | undefined;
}

/** Quick pick items: "(no role)" first, then every role with its description and servers; the active one marked. */
export function rolePickItems(roles: readonly RoleSettings[], active: string | undefined): RolePickItem[] {
  const mark = (isActive: boolean) => (isActive ? ' $(check)' : '');
  return [
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

/** Ask for a role; undefined when cancelled, `{ role: undefined }` for no role. */
export async function pickRole(roles: readonly RoleSettings[], active: string | undefined): Promise<{ role: string | undefined } | undefined> {
  const picked = await vscode.window.showQuickPick(rolePickItems(roles, active), {
    title: 'MCP Host: Select Role',
    placeHolder: `Active: ${active ?? NO_ROLE_LABEL}. The choice is saved to the workspace setting mcpHost.activeRole.`,
    matchOnDescription: true,
  });
  return picked ? { role: picked.role } : undefined;
}
