import { z } from 'zod';

/*
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, spec 2026-01-26, as typed in
 * @modelcontextprotocol/ext-apps 2.x `spec.types.d.ts`): its identifiers and the parts of `_meta.ui`
 * a host reads, checked with zod.
 */

/** The extension's key in `capabilities.extensions`. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of a view (`ui://` resource) the host can show. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';
/** The deprecated flat key of a tool's view: `_meta["ui/resourceUri"]`. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** Who may use a tool: `model` (offered to models), `app` (callable by a view of its own server). */
export type ToolVisibility = 'model' | 'app';
export const DEFAULT_VISIBILITY: readonly ToolVisibility[] = Object.freeze(['model', 'app'] as const);

/** Origins a view may reach, each list mapping to CSP directives (absent or empty: none). */
export interface UiCsp {
  /** `connect-src`: fetch/XHR/WebSocket. */
  readonly connectDomains?: readonly string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  readonly resourceDomains?: readonly string[];
  /** `frame-src`: nested iframes. */
  readonly frameDomains?: readonly string[];
  /** `base-uri`. */
  readonly baseUriDomains?: readonly string[];
}

/** Browser capabilities a view asks for (true: asked); the host grants them only after a person agrees. */
export interface UiPermissions {
  readonly camera?: boolean;
  readonly microphone?: boolean;
  readonly geolocation?: boolean;
  readonly clipboardWrite?: boolean;
}

/** What a view's resource declares about itself in `_meta.ui` (of the `resources/read` content, else of its `resources/list` entry). */
export interface UiResourceMeta {
  readonly csp?: UiCsp;
  readonly permissions?: UiPermissions;
  /** true: the view wants a visible border and background; absent: the host decides. */
  readonly prefersBorder?: boolean;
  /** A dedicated sandbox origin the server asks for (host-specific; shown, not honoured). */
  readonly domain?: string;
}

const domainList = z.array(z.string().min(1, 'expected a non-empty origin'), 'expected an array of origins');
export const UiCspSchema = z.object({
  connectDomains: domainList.optional(),
  resourceDomains: domainList.optional(),
  frameDomains: domainList.optional(),
  baseUriDomains: domainList.optional(),
}, 'expected an object of origin lists');

/** Each permission is an empty object in the spec (`camera: {}`); anything but an object is malformed. */
const asked = z.object({}, 'expected an object ({} asks for it)').optional();
export const UiPermissionsSchema = z.object({ camera: asked, microphone: asked, geolocation: asked, clipboardWrite: asked }, 'expected an object of permissions');

export const VisibilitySchema = z.array(z.enum(['model', 'app'], 'expected "model" or "app"'), 'expected an array of "model" and/or "app"');
export const ResourceUriSchema = z.string('expected a string').startsWith('ui://', 'expected a ui:// URI');

/** `permissions` as the host keeps them: `true` per capability asked for. */
export function permissionFlags(p: z.infer<typeof UiPermissionsSchema>): UiPermissions {
  const out: Record<string, boolean> = {};
  for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) if (p[key]) out[key] = true;
  return out;
}

/** "at csp.connectDomains.0: expected a non-empty origin" — the first issue of a failed parse. */
export function issueText(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return `${path}: ${issue.message}`;
}
