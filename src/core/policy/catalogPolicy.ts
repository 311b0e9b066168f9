import picomatch from 'picomatch';
import type { RoleSettings } from '../settings/hostSettings';
import { compileToolGlobs, type ToolMatcher } from './globMatcher';

type ResourceMatcher = (server: string, uri: string) => boolean;

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

  allowsResource(server: string, uri: string): boolean {
    return this.resources(server, uri);
  }

  allowsPrompt(server: string, prompt: string): boolean {
    return this.prompts(server, prompt);
  }
}

/**
 * `server/uri` globs: the server part (before the first "/") is a glob like a tool pattern's; in the
 * URI part `*` matches any run of characters (slashes included) and `?` one character. A pattern
 * that fails to compile matches nothing.
 */
export function compileResourceGlobs(patterns: readonly string[]): ResourceMatcher {
  const compiled: { server: RegExp; uri: RegExp }[] = [];
  for (const p of patterns) {
    const slash = p.indexOf('/');
    if (slash <= 0 || slash === p.length - 1) continue;
    try {
      compiled.push({ server: picomatch.makeRe(p.slice(0, slash), { dot: true, nonegate: true }), uri: wildcard(p.slice(slash + 1)) });
    } catch {
      // validated with the settings; never let a bad pattern widen access
    }
  }
  return (server, uri) => compiled.some((c) => c.server.test(server) && c.uri.test(uri));
}

function wildcard(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${body}$`);
}
