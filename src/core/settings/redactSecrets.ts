export const SECRET_PLACEHOLDER = '[secret]';

/** Shorter values are not redacted: replacing every "a" or "12" would wreck the text and hide nothing. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * Replace every occurrence of a secret value in `text` with `[secret]`. Also catches the value
 * as it appears inside JSON strings and in URL-encoded form (audit lines and error texts carry both).
 */
export function redactSecrets(text: string, secretValues: readonly string[]): string {
  return replaceValues(text, secretValues.map((v) => [v, SECRET_PLACEHOLDER]));
}

/**
 * Replace every occurrence of each value of `pairs` (also inside JSON strings and URL-encoded) with
 * its replacement: one pass (a replacement is never replaced again), longest value first.
 */
export function replaceValues(text: string, pairs: readonly (readonly [value: string, replacement: string])[]): string {
  if (!text || pairs.length === 0) return text;
  const needles = new Map<string, string>();
  for (const [value, replacement] of pairs) {
    if (typeof value !== 'string' || value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) if (!needles.has(form)) needles.set(form, replacement);
  }
  if (needles.size === 0) return text;
  const alternatives = [...needles.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return text.replace(new RegExp(alternatives.join('|'), 'g'), (m) => needles.get(m)!);
}

/** The values of `${env:NAME}` in `text` written back as `${env:NAME}` (messages about a server: never its values). */
export function showVariables(text: string, values: Readonly<Record<string, string>>): string {
  return replaceValues(text, Object.entries(values).map(([name, value]) => [value, `\${env:${name}}`]));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
