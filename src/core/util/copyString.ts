/**
 * A flat copy of a string: V8 keeps a slice (or a short piece of a long text) as a view of its
 * parent, which then lives as long as the piece does (a capped model text, the ends of a message
 * over the bound would each keep many MB alive).
 */
export function copyString(s: string): string {
  return s.length > 12 ? Buffer.from(s, 'utf8').toString('utf8') : s;
}
