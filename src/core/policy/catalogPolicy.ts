import picomatch from 'picomatch';
import type { RoleSettings } from '../settings/hostSettings';
import { canonicalUri } from './canonicalUri';
import { compileToolGlobs, type ToolMatcher } from './globMatcher';

type ResourceMatcher = (server: string, uri: string) => boolean;

/**
 * Whether a resource URI may be read, on its canonical form (canonicalUri.ts): `uri` is that form,
 * the one to send. Refused: a URI whose canonical form is ambiguous (`ambiguous`), or one the role's
 * globs do not match.
 */
export type ResourceAccess =
  | { readonly allowed: true; readonly uri: string }
  | { readonly allowed: false; readonly ambiguous: true; readonly reason: string }
  | { readonly allowed: false; readonly ambiguous: false; readonly uri: string };

/**
 * Which resources and prompts a role may list, read and use. Without a role every resource and
 * prompt is allowed (as every tool is); a role gets only what its `resources` and `prompts` globs
 * name, so a role without them gets none. Whether the role uses the server is PolicySet's check.
 */
export class CatalogPolicy {
  private readonly resources: ResourceMatcher;
  private readonly prompts: ToolMatcher;

  constructor(role: RoleSettings | undefined) {
    this.resources = role ? compileResourceGlobs(role.resources ?? []) : () => true;
    this.prompts = role ? compileToolGlobs(role.prompts ?? []) : () => true;
  }

  /** Matches the role's globs against the canonical form of `uri`; an ambiguous URI is refused with or without a role. */
  resourceAccess(server: string, uri: string): ResourceAccess {
    const canonical = canonicalUri(uri);
    if (!canonical.ok) return { allowed: false, ambiguous: true, reason: canonical.reason };
    return this.resources(server, canonical.uri) ? { allowed: true, uri: canonical.uri } : { allowed: false, ambiguous: false, uri: canonical.uri };
  }

  allowsResource(server: string, uri: string): boolean {
    return this.resourceAccess(server, uri).allowed;
  }

  allowsPrompt(server: string, prompt: string): boolean {
    return this.prompts(server, prompt);
  }
}

/**
 * `server/uri` globs: the server part (before the first "/") is a glob like a tool pattern's; in the
 * URI part `*` matches any run of characters (slashes included) and `?` one character. A pattern
 * that fails to compile matches nothing. The URI part is put in canonical form where it reads as a
 * URI; the URI given must be canonical (CatalogPolicy does that).
 */
export function compileResourceGlobs(patterns: readonly string[]): ResourceMatcher {
  const compiled: { server: RegExp; uri: RegExp }[] = [];
  for (const p of patterns) {
    const slash = p.indexOf('/');
    if (slash <= 0 || slash === p.length - 1) continue;
    try {
      compiled.push({ server: picomatch.makeRe(p.slice(0, slash), { dot: true, nonegate: true }), uri: wildcard(canonicalGlob(p.slice(slash + 1))) });
    } catch {
      // validated with the settings; never let a bad pattern widen access
    }
  }
  return (server, uri) => compiled.some((c) => c.server.test(server) && c.uri.test(uri));
}

/**
 * A URI glob in the canonical form of the URIs it is matched against, where it reads as a URI
 * (`FILE:///Guides/*` → `file:///Guides/*`, `cat://Docs/%7Eann/*` → `cat://docs/~ann/*`); as written otherwise (`*`).
 */
function canonicalGlob(glob: string): string {
  const c = canonicalUri(glob);
  return c.ok ? c.uri : glob;
}

function wildcard(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${body}$`);
}
