import type { McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { UiCsp } from '../../core/apps/uiMeta';

/**
 * A declared domain as a CSP host source: a scheme (http, https, ws, wss), a host (a leading `*.`
 * allowed), an optional port and path. Anything else (`*`, `'unsafe-eval'`, `data:`, a `;` that
 * would start a new directive, a quote) is refused: a declaration may only name where to connect.
 */
const HOST_SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[\w\-./~%]*)?$/i;

export interface AppCsp {
  /** The policy of the view's document, one line. */
  readonly policy: string;
  /** The declared domains the policy allows (told to the view in the host's capabilities). */
  readonly allowed: McpUiResourceCsp;
  /** Declared entries that were not host sources, with the field that declared them (left out of the policy). */
  readonly refused: readonly string[];
}

/**
 * The content security policy of an app's document, built from the domains its `ui://` resource
 * declares (`_meta.ui.csp`) and nothing more: fetch/XHR/WebSocket only to `connectDomains`,
 * scripts, styles, images, fonts and media only inline or from `resourceDomains`, nested frames only
 * from `frameDomains`, `<base>` only to `baseUriDomains`. With nothing declared the view reaches no
 * network at all (`connect-src 'none'`, no remote script, style, image or frame).
 */
export function appCsp(csp: UiCsp | undefined): AppCsp {
  const refused: string[] = [];
  const pick = (field: keyof UiCsp): string[] => {
    const out: string[] = [];
    for (const d of csp?.[field] ?? []) {
      if (typeof d === 'string' && HOST_SOURCE.test(d)) out.push(d);
      else refused.push(`${field}: ${JSON.stringify(d)}`);
    }
    return [...new Set(out)];
  };
  const connect = pick('connectDomains');
  const resource = pick('resourceDomains');
  const frame = pick('frameDomains');
  const base = pick('baseUriDomains');
  const list = (sources: readonly string[], none = "'none'") => (sources.length ? sources.join(' ') : none);
  const withResources = (...fixed: string[]) => [...fixed, ...resource].join(' ');
  const directives = [
    "default-src 'none'",
    // data: and blob: are content the view already holds, not a network: pdf.js starts its worker
    // from a data: module through a blob: wrapper (server-pdf renders nothing without them).
    `script-src ${withResources("'unsafe-inline'", 'data:', 'blob:')}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources('data:', 'blob:')}`,
    `font-src ${withResources('data:')}`,
    `media-src ${withResources('data:', 'blob:')}`,
    `worker-src ${withResources('data:', 'blob:')}`,
    `connect-src ${list(connect)}`,
    `frame-src ${list(frame)}`,
    `base-uri ${list(base)}`,
    "object-src 'none'",
    "form-action 'none'",
  ];
  const allowed: McpUiResourceCsp = {};
  for (const [field, list] of [['connectDomains', connect], ['resourceDomains', resource], ['frameDomains', frame], ['baseUriDomains', base]] as const) {
    if (list.length) allowed[field] = list;
  }
  return { policy: directives.join('; '), allowed, refused };
}

/** Text for a double-quoted HTML attribute (`&`, `<` and `"` escaped). */
export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/**
 * The app's HTML with its policy as the first element of `<head>` (a `<meta http-equiv>` applies
 * only to what follows it). A document without `<head>` gets one.
 */
export function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return `${html.slice(0, head.index + head[0].length)}${meta}${html.slice(head.index + head[0].length)}`;
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html);
  if (htmlTag) return `${html.slice(0, htmlTag.index + htmlTag[0].length)}<head>${meta}</head>${html.slice(htmlTag.index + htmlTag[0].length)}`;
  return `<head>${meta}</head>${html}`;
}

/**
 * The policy of the webview page that holds the view: the app's own policy plus the extension's
 * relay script and stylesheet (`cspSource`). The view's iframe (srcdoc) inherits this policy and
 * applies its own on top, so it gets no more than its declaration either way.
 */
export function shellCsp(appPolicy: string, cspSource: string): string {
  return appPolicy
    .split('; ')
    .map((d) => (d.startsWith('script-src ') || d.startsWith('style-src ') ? `${d} ${cspSource}` : d))
    .join('; ');
}
