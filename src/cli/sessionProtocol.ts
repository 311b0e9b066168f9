/** The JSON-lines protocol of `mcp-host session`: one request per stdin line. */

export type RequestId = string | number | null;

export type SessionRequest =
  | { readonly op: 'tools'; readonly id: RequestId }
  | { readonly op: 'servers'; readonly id: RequestId }
  | { readonly op: 'call'; readonly id: RequestId; readonly name: string; readonly args?: unknown }
  | { readonly op: 'refresh'; readonly id: RequestId; readonly server?: string }
  | { readonly op: 'role'; readonly id: RequestId; readonly name: string | null };

export type ParsedLine =
  | { readonly ok: true; readonly request: SessionRequest }
  | { readonly ok: false; readonly id: RequestId; readonly error: string };

export const OPS = ['tools', 'servers', 'call', 'refresh', 'role'] as const;

/**
 * Parse one line. A line that is not a JSON object, or has an unusable id, is answered with id
 * null; a line with a usable id but a bad op or fields is answered with that id.
 */
export function parseRequestLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, id: null, error: `not valid JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, id: null, error: `expected a JSON object like {"id":1,"op":"tools"}, got ${kind(value)}` };
  }
  const msg = value as Record<string, unknown>;
  const rawId = msg.id;
  if (rawId !== undefined && rawId !== null && typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isFinite(rawId))) {
    return { ok: false, id: null, error: `"id" must be a string or a number, got ${kind(rawId)}` };
  }
  const id: RequestId = rawId ?? null;
  const fail = (error: string): ParsedLine => ({ ok: false, id, error });

  switch (msg.op) {
    case 'tools':
    case 'servers':
      return { ok: true, request: { op: msg.op, id } };
    case 'call':
      if (typeof msg.name !== 'string' || msg.name === '') return fail('"call" needs "name", the tool name (a non-empty string)');
      return { ok: true, request: { op: 'call', id, name: msg.name, args: msg.args } };
    case 'refresh':
      if (msg.server !== undefined && typeof msg.server !== 'string') return fail(`"server" must be a server name, got ${kind(msg.server)}`);
      return { ok: true, request: { op: 'refresh', id, ...(msg.server !== undefined ? { server: msg.server } : {}) } };
    case 'role':
      if (!('name' in msg)) return fail('"role" needs "name": a role name, or null for no role');
      if (msg.name !== null && typeof msg.name !== 'string') return fail(`"name" must be a role name or null, got ${kind(msg.name)}`);
      return { ok: true, request: { op: 'role', id, name: msg.name || null } };
    case undefined:
      return fail(`missing "op"; ops: ${OPS.join(', ')}`);
    default:
      return fail(`unknown op ${JSON.stringify(msg.op)}; ops: ${OPS.join(', ')}`);
  }
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
