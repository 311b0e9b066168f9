import type { PathSegment } from './settingPath';

/** Values under these keys may hold credentials: never echo them in a message. */
const SENSITIVE_KEYS = new Set(['headers', 'env']);

export function isSensitivePath(segments: readonly PathSegment[]): boolean {
  return segments.some((s) => typeof s === 'string' && SENSITIVE_KEYS.has(s));
}

function truncate(s: string, max = 60): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** `number 5`, `string "abc"`, `an array`, … (strings under headers/env are not shown). */
export function describeValue(value: unknown, sensitive = false): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return sensitive ? 'a string' : `string ${JSON.stringify(truncate(value))}`;
    case 'number':
      return `number ${value}`;
    case 'boolean':
      return `boolean ${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** `configured servers: "a", "b"` or `no servers are configured`, for "unknown name" messages. */
export function knownList(what: string, names: ReadonlySet<string>): string {
  return names.size ? `configured ${what}: ${[...names].map((n) => JSON.stringify(n)).join(', ')}` : `no ${what} are configured`;
}
