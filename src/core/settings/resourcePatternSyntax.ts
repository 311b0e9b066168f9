import picomatch from 'picomatch';
import { z } from 'zod';

/**
 * The `<serverGlob>/<uriGlob>` patterns of a role's `resources`: the server part ends at the first
 * "/", everything after it is matched against the resource's URI (which has slashes of its own).
 */

export const RESOURCE_PATTERN_HELP = 'a pattern like "server/uri", "docs/file:///guides/*" or "*/*"';

/** Undefined when `p` is a usable resource pattern; otherwise the reason it is not. */
export function isValidResourcePattern(p: unknown): string | undefined {
  if (typeof p !== 'string') return 'it is not a string';
  if (p.trim() === '') return 'it is empty';
  const slash = p.indexOf('/');
  if (slash < 0) return 'it has no "/" between the server part and the URI part';
  if (slash === 0) return 'the server part before the first "/" is empty';
  if (slash === p.length - 1) return 'the URI part after the first "/" is empty';
  try {
    picomatch.makeRe(p.slice(0, slash), { strictBrackets: true });
  } catch (e) {
    return `in "${p.slice(0, slash)}": ${(e as Error).message}`;
  }
  const never = neverCanonical(p.slice(slash + 1));
  if (never) return `the URI part could never match: URIs are matched in their canonical form, which has no ${never}`;
  return undefined;
}

/**
 * What a URI glob holds that no canonical URI (src/core/policy/canonicalUri.ts) has, or undefined:
 * such a pattern would silently match nothing.
 */
function neverCanonical(uriGlob: string): string | undefined {
  const path = uriGlob.replace(/[?#].*$/s, '');
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return '"." or ".." segments';
  if (/%(2f|5c)/i.test(path)) return 'encoded "/" or "\\" (%2F, %5C) in its path';
  // eslint-disable-next-line no-control-regex
  if (/%00/.test(uriGlob) || /[\u0000-\u001f\u007f]/.test(uriGlob)) return 'NUL or other control characters';
  if (uriGlob.includes('\\')) return 'backslashes';
  return undefined;
}

/** One `server/uri` glob of a role's `resources`. */
export const ResourcePatternSchema = z
  .string({ error: `expected ${RESOURCE_PATTERN_HELP}` })
  .superRefine((p, ctx) => {
    const reason = isValidResourcePattern(p);
    if (reason) ctx.addIssue({ code: 'custom', message: `expected ${RESOURCE_PATTERN_HELP}`, params: { reason } });
  })
  .meta({
    pattern: '^[^/]+/.+$',
    patternErrorMessage: 'Expected "server/uri", with globs allowed on either side, e.g. "docs/file:///guides/*" or "*/*".',
  });

export const resourcePatternList = z
  .array(ResourcePatternSchema, { error: `expected an array of patterns (${RESOURCE_PATTERN_HELP})` })
  .meta({ uniqueItems: true });
