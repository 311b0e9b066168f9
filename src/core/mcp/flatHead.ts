/**
 * Flat heads of the long strings parseJsonPieces assembled, by the object and key holding them.
 * A long string is a rope of its pieces, and V8 flattens a rope (copies all of it) on any read,
 * a prefix included: a capped model text taken from the head copies a few KB, not 50 MB.
 *
 * A process that writes such strings out whole (`mcp-host call --json`) may also ask for their
 * parts (keepStringParts): the flat strings the rope is made of, in order, so it can write them
 * one after the other without ever flattening the rope (a copy the size of the string).
 */
interface Entry {
  readonly value: string;
  readonly head: string;
  /** The rope's parts in order (head first), when keepStringParts() was called before it was read. */
  readonly parts?: readonly string[];
}

const heads = new WeakMap<object, Map<string, Entry>>();

/**
 * Off unless asked: parts kept next to a rope cost nothing while the rope is whole, but once
 * anything flattens the rope they hold its text a second time for as long as the object lives
 * (an editor keeps results; the CLI writes its one result and exits).
 */
let keepParts = false;

/** From now on, the parts of long strings parseJsonPieces assembles are kept (see stringParts), or no longer (`false`). For a process that writes them out. */
export function keepStringParts(keep = true): void {
  keepParts = keep;
}

/** Whether parts are kept (parseJsonPieces asks, so it hands them over only then). */
export function keepingStringParts(): boolean {
  return keepParts;
}

export function recordHead(holder: object, key: string, value: string, head: string, parts?: readonly string[]): void {
  let m = heads.get(holder);
  if (!m) heads.set(holder, (m = new Map()));
  m.set(key, keepParts && parts ? { value, head, parts } : { value, head });
}

/** The entry for `holder[key]` when it is still the very string the parser made (compared by reference first: no read of its text). */
function entryOf(holder: object, key: string): Entry | undefined {
  const entry = heads.get(holder)?.get(key);
  return entry !== undefined && (holder as Record<string, unknown>)[key] === entry.value ? entry : undefined;
}

/**
 * A flat prefix (the first 1 MiB at least) of `holder[key]` when parseJsonPieces built that
 * string as a rope and it is still there; otherwise undefined (the string is flat or short: a
 * prefix of it costs nothing).
 */
export function flatHead(holder: object, key: string): string | undefined {
  return entryOf(holder, key)?.head;
}

/**
 * The flat strings `holder[key]` is made of, in order (their concatenation is the string), when
 * parseJsonPieces built it as a rope after keepStringParts() and it is still there; otherwise undefined.
 */
export function stringParts(holder: object, key: string): readonly string[] | undefined {
  return entryOf(holder, key)?.parts;
}
