/**
 * Flat heads of the long strings parseJsonPieces assembled, by the object and key holding them.
 * A long string is a rope of its pieces, and V8 flattens a rope (copies all of it) on any read,
 * a prefix included: a capped model text taken from the head copies a few KB, not 50 MB.
 */
const heads = new WeakMap<object, Map<string, { readonly value: string; readonly head: string }>>();

export function recordHead(holder: object, key: string, value: string, head: string): void {
  let m = heads.get(holder);
  if (!m) heads.set(holder, (m = new Map()));
  m.set(key, { value, head });
}

/**
 * A flat prefix (the first 1 MiB at least) of `holder[key]` when parseJsonPieces built that
 * string as a rope and it is still there; otherwise undefined (the string is flat or short: a
 * prefix of it costs nothing).
 */
export function flatHead(holder: object, key: string): string | undefined {
  const entry = heads.get(holder)?.get(key);
  // The very string the parser made (compared by reference first: no read of its text).
  return entry !== undefined && (holder as Record<string, unknown>)[key] === entry.value ? entry.head : undefined;
}
