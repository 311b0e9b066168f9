import { errorText } from '../util/errorText';

/** Tool-call arguments as a model sent them (an object, a JSON string of one, or nothing) → an object. */
export function parseCallArguments(raw: unknown): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  let value = raw;
  if (value === undefined || value === null || value === '') return { ok: true, args: {} };
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      return { ok: false, error: `arguments are not valid JSON: ${errorText(e)}` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
