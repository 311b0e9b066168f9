import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { UI_MIME_TYPE, type UiResourceMeta } from './uiMeta';
import { readUiResourceMeta } from './uiResourceMeta';

/** A view ready to render: its HTML and what its resource declares (CSP origins, permissions, border). */
export interface AppView {
  readonly server: string;
  /** The `ui://` resource it was read from. */
  readonly uri: string;
  readonly html: string;
  readonly meta: UiResourceMeta;
  /** Malformed parts of the resource's `_meta.ui` that were ignored (also logged). */
  readonly problems: readonly string[];
}

/** A view that cannot be shown, with what and where. */
export class AppViewError extends Error {
  constructor(
    readonly server: string,
    readonly uri: string,
    why: string,
  ) {
    super(`cannot show view ${uri} of server "${server}": ${why}`);
    this.name = 'AppViewError';
  }
}

/**
 * The view in a `resources/read` result: the content item of `uri` (else the only one), of MIME
 * type `text/html;profile=mcp-app`, as text or a base64 blob. `listed` is the resource's
 * `resources/list` entry, whose `_meta.ui` counts when the content has none.
 */
export function appViewFromContents(server: string, uri: string, contents: ReadResourceResult['contents'], listed?: { readonly _meta?: unknown }): AppView {
  const fail = (why: string) => new AppViewError(server, uri, why);
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) throw fail(contents.length ? `the server returned ${contents.length} contents and none is ${uri}` : 'the server returned no contents');
  const mime = item.mimeType?.replace(/\s+/g, '').toLowerCase();
  if (mime !== UI_MIME_TYPE) throw fail(`its MIME type is ${item.mimeType ? `"${item.mimeType}"` : 'not given'}, expected "${UI_MIME_TYPE}"`);
  let html: string;
  if ('text' in item && typeof item.text === 'string') html = item.text;
  else if ('blob' in item && typeof item.blob === 'string') html = decodeBase64(item.blob, fail);
  else throw fail('the content has neither text nor a blob');
  if (!html.trim()) throw fail('its HTML is empty');
  const { meta, problems } = readUiResourceMeta(item, listed);
  return { server, uri, html, meta, problems };
}

function decodeBase64(b64: string, fail: (why: string) => Error): string {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(b64)) throw fail('its blob is not base64');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    throw fail('its blob is not UTF-8 text');
  }
}
