/**
 * The canonical form of a resource URI, the one a role's resource globs are matched against and
 * the one sent to the server (so the server cannot read the URI differently from the check):
 *
 * - the scheme and the host in lower case;
 * - percent-escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded (RFC 3986 §6.2.2.2);
 *   every other escape is kept as written (a server may look its URIs up by their exact text);
 * - `.` and `..` path segments resolved (RFC 3986 §5.2.4), `%2e` counting as a dot.
 *
 * A URI is refused, with the reason, when its meaning depends on who reads it: no scheme; a NUL or
 * another control character, a space at either end, a backslash (WHATWG URL readers treat these
 * specially); an encoded `/` or `\` (`%2F`, `%5C`) or an encoded `%` starting another escape
 * (`%252e`, read as `.` by a reader that decodes twice) in the authority or path; a `%` that is not
 * an escape; a `..` that would climb above the start of the path; a `%` left in the host.
 * The query and fragment keep their slashes and escapes (only the decoding above applies).
 */

export type CanonicalUri = { readonly ok: true; readonly uri: string } | { readonly ok: false; readonly reason: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function canonicalUri(uri: string): CanonicalUri {
  const refuse = (reason: string): CanonicalUri => ({ ok: false, reason: `the URI ${JSON.stringify(uri)} ${reason}` });
  const control = CONTROL.exec(uri);
  if (control) return refuse(control[0] === '\u0000' ? 'contains a NUL character' : `contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  if (uri.trim() !== uri) return refuse('starts or ends with white space');
  if (uri.includes('\\')) return refuse('contains a backslash (some readers take it for "/")');
  const scheme = SCHEME.exec(uri);
  if (!scheme) return refuse('has no scheme (like "file:" or "https:")');

  let rest = uri.slice(scheme[0].length);
  const fragmentAt = rest.indexOf('#');
  const fragment = fragmentAt >= 0 ? rest.slice(fragmentAt) : '';
  if (fragmentAt >= 0) rest = rest.slice(0, fragmentAt);
  const queryAt = rest.indexOf('?');
  const query = queryAt >= 0 ? rest.slice(queryAt) : '';
  if (queryAt >= 0) rest = rest.slice(0, queryAt);
  let authority: string | undefined;
  let path = rest;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    authority = end >= 0 ? rest.slice(2, end) : rest.slice(2);
    path = end >= 0 ? rest.slice(end) : '';
  }

  let problem: string | undefined;
  const decode = (part: string, where: 'authority' | 'path' | 'query' | 'fragment'): string =>
    part.replace(/%(.{0,2})/gs, (escape: string, hex: string, at: number) => {
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) {
        problem ??= `has a "%" not followed by two hex digits in its ${where}`;
        return escape;
      }
      const c = String.fromCharCode(parseInt(hex, 16));
      if (c === '\u0000') problem ??= `contains an encoded NUL (%00) in its ${where}`;
      if (where === 'authority' || where === 'path') {
        if (c === '/' || c === '\\') problem ??= `contains an encoded ${c === '/' ? '"/" (%2F)' : 'backslash (%5C)'} in its ${where}`;
        if (c === '%' && /^[0-9A-Fa-f]{2}/.test(part.slice(at + 3))) problem ??= `contains an encoded "%" that starts another escape (${escape}${part.slice(at + 3, at + 5)}) in its ${where}`;
      }
      return UNRESERVED.test(c) ? c : escape;
    });

  let canonicalAuthority: string | undefined;
  if (authority !== undefined) {
    const at = authority.lastIndexOf('@');
    const userinfo = at >= 0 ? decode(authority.slice(0, at + 1), 'authority') : '';
    const host = decode(authority.slice(at + 1), 'authority').toLowerCase();
    if (!problem && host.includes('%')) problem = 'has a percent-encoded character in its host';
    canonicalAuthority = `//${userinfo}${host}`;
  }
  const decodedPath = decode(path, 'path');
  const canonicalQuery = decode(query, 'query');
  const canonicalFragment = decode(fragment, 'fragment');
  if (problem) return refuse(problem);

  const resolved = removeDotSegments(decodedPath);
  if (resolved === undefined) return refuse('has a ".." segment that climbs above the start of its path');
  return { ok: true, uri: `${scheme[1].toLowerCase()}:${canonicalAuthority ?? ''}${resolved}${canonicalQuery}${canonicalFragment}` };
}

/**
 * RFC 3986 §5.2.4 over segments (`%2e` is already a dot here), except that a `..` with nothing
 * left to remove is refused (undefined) rather than dropped: the reader may not drop it.
 */
function removeDotSegments(path: string): string | undefined {
  if (path === '') return path;
  const absolute = path.startsWith('/');
  const segments = (absolute ? path.slice(1) : path).split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    const last = i === segments.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..') {
        if (out.length === 0) return undefined;
        out.pop();
      }
      // A dot segment at the end leaves the path ending in "/".
      if (last) out.push('');
      continue;
    }
    out.push(s);
  }
  return (absolute ? '/' : '') + out.join('/');
}
