/** The first non-empty line of a text, cut to `max` characters. */
export function firstLine(text: string | undefined, max = 120): string {
  const line = (text ?? '').split(/\r?\n/).find((l) => l.trim()) ?? '';
  const t = line.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** A text cut to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A value as JSON for a message about it, cut to `max` characters (something JSON cannot write as itself). */
export function jsonPreview(value: unknown, max = 200): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cut(text, max);
}
