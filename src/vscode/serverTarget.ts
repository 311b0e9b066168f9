import type { ServerSettings } from '../core/settings/hostSettings';

export const MASK = '••••';

/** A value made only of variable references (optionally after a scheme word like "Bearer") is safe to show. */
const ONLY_REFERENCES = /^\s*(?:[A-Za-z][\w-]*\s+)?(?:\$\{[^{}]+\}\s*)+$/;

/**
 * What a server runs or where it connects, for tooltips: never resolved, so `${secret:X}` shows as
 * written. Literal credentials are masked: header values that are not just references, the
 * password of a URL and query values that are not references. Environment values are not shown.
 */
export function describeTarget(s: ServerSettings): string[] {
  if (s.type === 'stdio') {
    const lines = [`stdio: ${[s.command, ...s.args].map(quoteArg).join(' ')}`];
    if (s.cwd) lines.push(`cwd: ${s.cwd}`);
    const env = Object.keys(s.env);
    if (env.length) lines.push(`env: ${env.join(', ')} (values hidden)`);
    return lines;
  }
  const lines = [`${s.type === 'sse' ? 'SSE' : 'Streamable HTTP'}: ${maskUrl(s.url)}`];
  for (const [k, v] of Object.entries(s.headers)) lines.push(`header ${k}: ${maskValue(v)}`);
  return lines;
}

export function maskValue(value: string): string {
  return ONLY_REFERENCES.test(value) ? value : MASK;
}

export function maskUrl(url: string): string {
  let out = url.replace(/^([a-z][\w+.-]*:\/\/[^/@:]*):([^/@]*)@/i, (_m, user: string, pass: string) =>
    `${user}:${pass.startsWith('${') ? pass : MASK}@`,
  );
  out = out.replace(/([?&][^=&#]+=)([^&#]*)/g, (_m, key: string, value: string) => `${key}${value === '' || /^\$\{[^{}]+\}$/.test(value) ? value : MASK}`);
  return out;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(a) ? a : JSON.stringify(a);
}
