import { SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { errorChain, errorText } from '../util/errorText';

/**
 * The server could not be reached (refused, reset, DNS, TLS…): the connection is gone, as when a
 * stdio server exits. Names the URL and the cause, where fetch says only "fetch failed".
 */
export class ServerUnreachableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ServerUnreachableError';
  }
}

/** A URL for messages: no user name or password (query values that are secrets are masked by the redactor). */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return String(url);
  }
}

/** "cannot reach <url>: connect ECONNREFUSED 127.0.0.1:1234". */
export function unreachableError(url: string | URL, e: unknown): ServerUnreachableError {
  return new ServerUnreachableError(`cannot reach ${displayUrl(url)}: ${causeText(e)}`, e);
}

/** The innermost useful message of a network error (fetch wraps the real cause). */
export function causeText(e: unknown): string {
  const parts: string[] = [];
  for (const cur of errorChain(e, 4)) {
    if (!cur) break;
    const text = errorText(cur);
    const code = (cur as { code?: unknown }).code;
    if (text && !parts.includes(text)) parts.push(typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text);
  }
  // "fetch failed" says nothing the cause does not: show the cause first.
  return parts.length > 1 && /^fetch failed$/i.test(parts[0]) ? parts.slice(1).join(': ') : parts.join(': ') || 'unknown error';
}

/** The HTTP status of an SDK transport error ("HTTP 500 from <url>: …"), or undefined for other errors. */
export function httpStatusText(e: unknown, url: string | undefined): string | undefined {
  const code = httpStatusOf(e);
  if (code === undefined) return undefined;
  const where = url ? ` from ${displayUrl(url)}` : '';
  const hint = code === 401 || code === 403 ? " (check the server's headers and secrets)" : '';
  return `HTTP ${code}${where}: ${errorText(e)}${hint}`;
}

/** The HTTP status an SDK transport error carries (Streamable HTTP or SSE), or undefined for other errors. */
export function httpStatusOf(e: unknown): number | undefined {
  const code = e instanceof SdkHttpError ? e.status : e instanceof SseError ? e.code : undefined;
  return code === undefined || code <= 0 ? undefined : code;
}
