import type { Resource } from '@modelcontextprotocol/client';
import type { CallActor } from '../audit/callActor';
import type { ResourceReadRequest, ResourceReadResult } from '../calls/resourceReader';
import type { Logger } from '../util/logger';
import { AppViewError, appViewFromContents, type AppView } from '../apps/appView';

export interface AppViewRequest {
  readonly server: string;
  /** The `ui://` resource (a tool's `readToolUi(tool).resourceUri`). */
  readonly uri: string;
  /** The tool whose view it is (recorded in the audit's actor). */
  readonly tool?: string;
  readonly signal?: AbortSignal;
}

export interface AppViewSources {
  /** The one audited resource path (ResourceReader): role, canonical URI, timeout, audit. */
  readonly read: (request: ResourceReadRequest) => Promise<ResourceReadResult>;
  /** The server's `resources/list` entries, for the `_meta.ui` fallback. */
  readonly listed: (server: string) => readonly Resource[];
  readonly logger: Logger;
}

/**
 * Fetch a view through the resource reader, audited with purpose "app" and the view as actor.
 * Rejects with an AppViewError that says what and where: not allowed to the role, server down,
 * not found, not `text/html;profile=mcp-app`, not decodable. Malformed `_meta.ui` parts are logged.
 */
export async function readAppView(request: AppViewRequest, o: AppViewSources): Promise<AppView> {
  const { server, uri } = request;
  if (!uri.startsWith('ui://')) throw new AppViewError(server, uri, 'a view is a ui:// resource');
  const actor: CallActor = { kind: 'app', server, view: uri, ...(request.tool !== undefined ? { tool: request.tool } : {}) };
  const read = await o.read({ server, uri, purpose: 'app', actor, signal: request.signal });
  if (read.outcome !== 'ok') throw new AppViewError(server, uri, `${read.outcome}: ${read.text}`);
  const view = appViewFromContents(server, uri, read.contents, o.listed(server).find((r) => r.uri === uri));
  for (const why of view.problems) o.logger.warn(`view ${uri} of server "${server}": ${why}`);
  return view;
}
