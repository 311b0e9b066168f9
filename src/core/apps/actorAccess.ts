import type { Tool } from '@modelcontextprotocol/client';
import type { CallActor } from '../audit/callActor';
import { visibleTo } from './toolUi';

/**
 * What the MCP Apps extension adds to the role's check, by who asks (the router and the resource
 * reader apply it after the role; it only ever narrows):
 * - a model, a CLI session or a gateway client sees only tools whose visibility includes "model";
 *   anything else is for them exactly an unknown tool;
 * - an app's view may call only tools of its own server whose visibility includes "app", and read
 *   only its own server's resources.
 */
export type ToolAccess =
  | { readonly allowed: true }
  /** Answer exactly as for a name nobody offers. */
  | { readonly allowed: false; readonly hidden: true }
  /** Refused by the host, with why (for the view and the audit). */
  | { readonly allowed: false; readonly hidden: false; readonly reason: string };

const ALLOWED: ToolAccess = { allowed: true };
const HIDDEN: ToolAccess = { allowed: false, hidden: true };

export function toolAccess(actor: CallActor | undefined, server: string, tool: Tool): ToolAccess {
  if (actor?.kind !== 'app') return visibleTo(tool, 'model') ? ALLOWED : HIDDEN;
  if (server !== actor.server) {
    return { allowed: false, hidden: false, reason: `a view may call only its own server's tools; tool "${tool.name}" is of server "${server}", the view ${actor.view} of server "${actor.server}"` };
  }
  if (!visibleTo(tool, 'app')) return { allowed: false, hidden: false, reason: `tool "${tool.name}" of server "${server}" is not visible to apps (its _meta.ui.visibility lacks "app")` };
  return ALLOWED;
}

/** Why `actor` may not read resources of `server` (undefined: the role decides). */
export function resourceRefusal(actor: CallActor | undefined, server: string): string | undefined {
  if (actor?.kind !== 'app' || actor.server === server) return undefined;
  return `a view may read only its own server's resources; the view ${actor.view} of server "${actor.server}" asked server "${server}"`;
}
