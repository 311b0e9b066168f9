import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../settings/isPlainObject';
import {
  DEFAULT_VISIBILITY,
  issueText,
  LEGACY_RESOURCE_URI_KEY,
  permissionFlags,
  ResourceUriSchema,
  UiCspSchema,
  UiPermissionsSchema,
  VisibilitySchema,
  type ToolVisibility,
  type UiResourceMeta,
} from './uiMeta';

/**
 * What a tool's `_meta.ui` says: its view and who may use it. `csp`, `permissions` and
 * `prefersBorder` belong on the view's resource (readUiResourceMeta, `McpHost.readAppView`); they
 * are kept here only when a server also puts them on the tool, as a hint that the resource wins over.
 */
export interface ToolUi extends UiResourceMeta {
  /** The `ui://` resource of the tool's view (`_meta.ui.resourceUri`, or the deprecated `_meta["ui/resourceUri"]`). */
  readonly resourceUri: string;
  readonly visibility: readonly ToolVisibility[];
}

/** Everything the host made of a tool's `_meta.ui`. */
export interface ToolUiReading {
  /** Its view, if it has one. */
  readonly ui?: ToolUi;
  /** Who may use it (default `["model", "app"]`); empty when `refused`. */
  readonly visibility: readonly ToolVisibility[];
  /** Why the tool cannot be loaded: its visibility is malformed, so whom it is for is unknown. */
  readonly refused?: string;
  /** Malformed parts that were dropped (the tool is loaded without them). */
  readonly problems: readonly string[];
}

const NOTHING: ToolUiReading = Object.freeze({ visibility: DEFAULT_VISIBILITY, problems: [] });
const readings = new WeakMap<Tool, ToolUiReading>();

/** What a tool's `_meta.ui` says, checked with zod once per tool object; never throws. */
export function inspectToolUi(tool: Tool): ToolUiReading {
  if (!tool._meta) return NOTHING; // most tools: no lookup at all (the snapshot asks for each tool)
  let r = readings.get(tool);
  if (!r) readings.set(tool, (r = inspect(tool._meta)));
  return r;
}

/** The tool's view, if it declares a well-formed one. */
export function readToolUi(tool: Tool): ToolUi | undefined {
  return inspectToolUi(tool).ui;
}

/** Who may use the tool: `["model", "app"]` unless its `_meta.ui.visibility` says otherwise; nobody when that is malformed. */
export function toolVisibility(tool: Tool): readonly ToolVisibility[] {
  return inspectToolUi(tool).visibility;
}

/** Whether `who` may see and call the tool. */
export function visibleTo(tool: Tool, who: ToolVisibility): boolean {
  return toolVisibility(tool).includes(who);
}

/** A tool only a view can call (its visibility lacks `"model"`): never offered to a model. */
export function isAppOnly(tool: Tool): boolean {
  return !visibleTo(tool, 'model');
}

function inspect(meta: Tool['_meta']): ToolUiReading {
  if (!meta) return NOTHING;
  const ui: unknown = meta.ui;
  const legacy: unknown = meta[LEGACY_RESOURCE_URI_KEY];
  if (ui === undefined && legacy === undefined) return NOTHING;
  if (ui !== undefined && !isPlainObject(ui)) return { visibility: [], refused: '_meta.ui: expected an object', problems: [] };
  const o: Record<string, unknown> = ui ?? {};
  const problems: string[] = [];
  let visibility = DEFAULT_VISIBILITY;
  if (o.visibility !== undefined) {
    const v = VisibilitySchema.safeParse(o.visibility);
    if (!v.success) return { visibility: [], refused: issueText(v.error, '_meta.ui.visibility'), problems: [] };
    visibility = Object.freeze([...new Set(v.data)]);
  }
  const extra: Record<string, unknown> = {};
  const parts = [
    ['csp', UiCspSchema],
    ['permissions', UiPermissionsSchema],
  ] as const;
  for (const [key, schema] of parts) {
    if (o[key] === undefined) continue;
    const p = schema.safeParse(o[key]);
    if (!p.success) problems.push(`${issueText(p.error, `_meta.ui.${key}`)}; _meta.ui.${key} is ignored`);
    else extra[key] = key === 'permissions' ? permissionFlags(p.data as never) : p.data;
  }
  if (o.prefersBorder !== undefined) {
    if (typeof o.prefersBorder === 'boolean') extra.prefersBorder = o.prefersBorder;
    else problems.push('_meta.ui.prefersBorder: expected true or false; _meta.ui.prefersBorder is ignored');
  }
  const declared = o.resourceUri !== undefined ? { key: '_meta.ui.resourceUri', value: o.resourceUri } : legacy !== undefined ? { key: `_meta["${LEGACY_RESOURCE_URI_KEY}"]`, value: legacy } : undefined;
  if (!declared) return { visibility, problems };
  const uri = ResourceUriSchema.safeParse(declared.value);
  if (!uri.success) {
    problems.push(`${declared.key}: ${uri.error.issues[0].message}; the tool has no view`);
    return { visibility, problems };
  }
  return { ui: { resourceUri: uri.data, visibility, ...extra }, visibility, problems };
}
