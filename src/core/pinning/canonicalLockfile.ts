import type { LockedServer, LockedTool } from './lockfile';

/**
 * One server's entry read straight out of a lockfile in canonical form (the exact bytes
 * serializeLockfile writes: keys sorted, two-space indent), parsing only that entry, and of its
 * tools only `tools` when given. A 15 MB lockfile of 20,000 tools then costs a few byte searches
 * and one small JSON.parse per tool instead of materialising every definition.
 *
 * Only for bytes known to be a valid lockfile in canonical form (see CheckedLockfiles): there,
 * every line is indented by twice its depth and JSON strings hold no raw newline, so
 * "\n" + 2·d spaces + `"key": {` is exactly an object-valued member at depth d, it belongs to the
 * object opened before it when no "\n" + 2·(d−1) spaces + "}" (that object's close) lies between,
 * and the first "\n" + 2·d spaces + "}" after it is its own close. Undefined when the server has
 * no entry; throws when the bytes do not have that form (the caller then parses the whole file).
 * With `tools`, the entry's members after "tools" (none that the host reads) are left out.
 */
export function canonicalServerEntry(bytes: Buffer, server: string, tools?: readonly string[]): LockedServer | undefined {
  const servers = member(bytes, 0, 1, 'servers');
  if (!servers) {
    if (bytes.includes('\n  "servers": {}')) return undefined;
    throw new Error('no "servers" object');
  }
  const entry = member(bytes, servers.valueStart, 2, server);
  if (!entry) return undefined;
  const toolsMember = tools && member(bytes, entry.valueStart, 3, 'tools');
  if (!tools || !toolsMember) return parse(bytes, entry.valueStart, closeOf(bytes, entry.valueStart, 2)) as LockedServer;
  // The entry up to its tools (identity, serverInfo), then only the wanted tools.
  const skeleton = JSON.parse(bytes.toString('utf8', entry.valueStart, toolsMember.start) + '\n"tools": {}}') as { tools: Record<string, LockedTool> };
  for (const name of tools) {
    const t = member(bytes, toolsMember.valueStart, 4, name);
    if (t) skeleton.tools[name] = parse(bytes, t.valueStart, closeOf(bytes, t.valueStart, 4)) as LockedTool;
  }
  return skeleton as unknown as LockedServer;
}

interface Member {
  /** Where the member's line starts (its "\n"). */
  readonly start: number;
  /** Where its object value starts (the "{"). */
  readonly valueStart: number;
}

/** The object-valued member `key` at `depth` of the object whose value starts at `parent`, if it has one. */
function member(bytes: Buffer, parent: number, depth: number, key: string): Member | undefined {
  const opening = `\n${'  '.repeat(depth)}${JSON.stringify(key)}: {\n`;
  const start = bytes.indexOf(opening, parent);
  if (start < 0) return undefined;
  // Found after the parent's close: it belongs to something else.
  if (depth > 1 && bytes.subarray(parent, start).includes(`\n${'  '.repeat(depth - 1)}}`)) return undefined;
  return { start, valueStart: start + Buffer.byteLength(opening) - 2 };
}

/** Just after the "}" that closes the object (a member at `depth`) whose value starts at `valueStart`. */
function closeOf(bytes: Buffer, valueStart: number, depth: number): number {
  const close = `\n${'  '.repeat(depth)}}`;
  const at = bytes.indexOf(close, valueStart);
  if (at < 0) throw new Error('an entry does not end where it should');
  return at + close.length;
}

function parse(bytes: Buffer, start: number, end: number): unknown {
  return JSON.parse(bytes.toString('utf8', start, end));
}
