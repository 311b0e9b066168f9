/** Keys whose values never reach the audit: password, secret, token, api key, authorization, cookie. */
const SECRET_KEY = /pass(word|wd|phrase)?$|secret|token|api[-_ ]?key|authori[sz]ation|cookie|credential|private[-_ ]?key/i;

export const REDACTED = '[redacted]';

export function looksSecret(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A deep copy of tool arguments with secret-looking keys' values replaced by "[redacted]". */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactArguments(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = looksSecret(k) ? REDACTED : redactArguments(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Cut text to at most `maxBytes` UTF-8 bytes, marking the cut. */
export function summarize(text: string, maxBytes = 1024): string {
  // A UTF-8 character is at most 3 bytes per UTF-16 unit: short texts need no encoding pass.
  if (text.length * 3 <= maxBytes) return text;
  const buf = Buffer.from(text, 'utf8');
  if (buf.byteLength <= maxBytes) return text;
  const marker = ' …[cut]';
  let cut = buf.subarray(0, maxBytes - Buffer.byteLength(marker)).toString('utf8');
  // Drop a partial trailing character (decoded as U+FFFD).
  cut = cut.replace(/\uFFFD+$/, '');
  return cut + marker;
}
