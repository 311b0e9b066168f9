import { z } from 'zod';
import { isPlainObject } from '../settings/isPlainObject';
import { issueText, permissionFlags, UiCspSchema, UiPermissionsSchema, type UiResourceMeta } from './uiMeta';

const ResourceUiSchema = z.object({
  csp: UiCspSchema.optional(),
  permissions: UiPermissionsSchema.optional(),
  prefersBorder: z.boolean('expected true or false').optional(),
  domain: z.string('expected a string').optional(),
});

export interface UiResourceMetaReading {
  readonly meta: UiResourceMeta;
  /** Malformed parts, each dropped (a dropped `csp` means no origin is allowed, the restrictive default). */
  readonly problems: readonly string[];
}

/**
 * The `_meta.ui` of a view's resource: from its `resources/read` content item, or (when that has
 * none) from its `resources/list` entry, as the spec says. A malformed part is dropped with a
 * problem naming it; never throws.
 */
export function readUiResourceMeta(content: { readonly _meta?: unknown }, listed?: { readonly _meta?: unknown }): UiResourceMetaReading {
  const own = uiOf(content._meta);
  const ui = own !== undefined ? own : uiOf(listed?._meta);
  if (ui === undefined) return { meta: {}, problems: [] };
  if (!isPlainObject(ui)) return { meta: {}, problems: [`_meta.ui: expected an object`] };
  const meta: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of ['csp', 'permissions', 'prefersBorder', 'domain'] as const) {
    if (ui[key] === undefined) continue;
    const parsed = ResourceUiSchema.shape[key].safeParse(ui[key]);
    if (!parsed.success) problems.push(`${issueText(parsed.error, `_meta.ui.${key}`)}; _meta.ui.${key} is ignored`);
    else meta[key] = key === 'permissions' ? permissionFlags(parsed.data as z.infer<typeof UiPermissionsSchema>) : parsed.data;
  }
  return { meta: meta as UiResourceMeta, problems };
}

function uiOf(meta: unknown): unknown {
  return isPlainObject(meta) ? meta.ui : undefined;
}
