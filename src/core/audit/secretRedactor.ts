import { showVariables } from '../settings/redactSecrets';
import { looksSecret, REDACTED } from './redactArguments';

export const SECRET_PLACEHOLDER = '[secret]';

/** Shorter values are not masked: replacing every "a" or "12" would wreck the text and hide nothing. */
export const MIN_MASKED_LENGTH = 4;

/** Most argument values remembered (oldest forgotten first). */
const MAX_ARGUMENT_VALUES = 512;

/**
 * THE rule of secret hygiene, in one place: a value the host knows to be secret — a resolved
 * `${secret:…}` of any server (→ `[secret]`) or an argument value redacted by its key, like
 * `token` (→ `[redacted]`) — is masked in every text that leaves the host: logs (stderr, the
 * output channel), server states and errors, call results (content, structuredContent, model text)
 * and the audit. Also catches a value as it appears inside JSON strings and URL-encoded.
 * With nothing to mask, every method returns its input as is (no scan, no copy).
 */
export class SecretRedactor {
  private readonly serverSecrets = new Map<string, readonly string[]>();
  private readonly serverVariables = new Map<string, Readonly<Record<string, string>>>();
  private readonly argumentValues = new Set<string>();
  private compiled?: { re: RegExp; replacement: Map<string, string> } | null;

  /**
   * The resolved `${secret:}` values of a server's current start; `variables`: the values of the
   * `${env:NAME}` in its command, args, cwd or URL, written back as the variable in {@link message}.
   */
  setServerSecrets(server: string, values: readonly string[], variables: Readonly<Record<string, string>> = {}): void {
    this.serverVariables.set(server, variables);
    const before = this.serverSecrets.get(server);
    if (before && before.length === values.length && before.every((v, i) => v === values[i])) return;
    // Earlier values stay masked too: they were secrets, and may still be echoed.
    this.serverSecrets.set(server, [...new Set([...(before ?? []), ...values])]);
    this.compiled = undefined;
  }

  /** Remember the values of secret-looking keys of call arguments (`token`, `password`…), deeply. */
  noteArguments(args: unknown): void {
    const found: string[] = [];
    collectSecretValues(args, false, found, 0);
    let changed = false;
    for (const v of found) {
      if (v.length < MIN_MASKED_LENGTH || this.argumentValues.has(v)) continue;
      this.argumentValues.add(v);
      changed = true;
      if (this.argumentValues.size > MAX_ARGUMENT_VALUES) this.argumentValues.delete(this.argumentValues.values().next().value!);
    }
    if (changed) this.compiled = undefined;
  }

  /** A message about a server (why it failed or stopped): secrets masked, its `${env:NAME}` values as the variable (the URL of "cannot reach …"). */
  message(server: string, s: string): string {
    return showVariables(this.text(s), this.serverVariables.get(server) ?? {});
  }

  /** Whether anything is masked at all. */
  get active(): boolean {
    return this.compile() !== null;
  }

  text(s: string): string {
    if (!s) return s;
    const c = this.compile();
    if (!c) return s;
    c.re.lastIndex = 0;
    if (!c.re.test(s)) return s;
    return s.replace(c.re, (m) => c.replacement.get(m) ?? SECRET_PLACEHOLDER);
  }

  /**
   * A JSON value with every string masked; unchanged parts are shared, not copied. Keys in
   * `skipKeys` (base64 payloads: `data`, `blob`) are left alone.
   */
  deep<T>(value: T, skipKeys?: ReadonlySet<string>): T {
    if (!this.active) return value;
    return this.walk(value, skipKeys, 0) as T;
  }

  private walk(value: unknown, skip: ReadonlySet<string> | undefined, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v = this.walk(value[i], skip, depth + 1);
        if (v !== value[i]) (out ??= value.slice())[i] = v;
      }
      return out ?? value;
    }
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (skip?.has(k)) continue;
      const w = this.walk(v, skip, depth + 1);
      if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = w;
    }
    return out ?? value;
  }

  private compile(): { re: RegExp; replacement: Map<string, string> } | null {
    if (this.compiled !== undefined) return this.compiled;
    const replacement = new Map<string, string>();
    const add = (value: string, placeholder: string) => {
      if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) return;
      for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
        if (!replacement.has(form)) replacement.set(form, placeholder);
      }
    };
    for (const values of this.serverSecrets.values()) for (const v of values) add(v, SECRET_PLACEHOLDER);
    for (const v of this.argumentValues) add(v, REDACTED);
    if (replacement.size === 0) return (this.compiled = null);
    // One pass (a placeholder is never masked again), longest first (a secret containing another is masked whole).
    const alternatives = [...replacement.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    return (this.compiled = { re: new RegExp(alternatives.join('|'), 'g'), replacement });
  }
}

function collectSecretValues(value: unknown, secret: boolean, out: string[], depth: number): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (secret) out.push(value);
  } else if (typeof value === 'number' || typeof value === 'bigint') {
    if (secret) out.push(String(value));
  } else if (Array.isArray(value)) {
    for (const v of value) collectSecretValues(v, secret, out, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) collectSecretValues(v, secret || looksSecret(k), out, depth + 1);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
