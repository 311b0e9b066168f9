export const SECRET_PLACEHOLDER = '[secret]';

/** Shorter values are not redacted: replacing every "a" or "12" would wreck the text and hide nothing. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * Replace every occurrence of a secret value in `text` with `[secret]`. Also catches the value
 * as it appears inside JSON strings and in URL-encoded form (audit lines and error texts carry both).
 */
export function redactSecrets(text: string, secretValues: readonly string[]): string {
  if (!text || secretValues.length === 0) return text;
  const needles = new Set<string>();
  for (const value of secretValues) {
    if (typeof value !== 'string' || value.length < MIN_REDACTED_LENGTH) continue;
    needles.add(value);
    const json = JSON.stringify(value).slice(1, -1);
    if (json !== value) needles.add(json);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) needles.add(encoded);
  }
  if (needles.size === 0) return text;
  // One pass (so a placeholder is never redacted again), longest first (so a secret that
  // contains another one is replaced whole).
  const alternatives = [...needles].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return text.replace(new RegExp(alternatives.join('|'), 'g'), SECRET_PLACEHOLDER);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
