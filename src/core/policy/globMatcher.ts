import picomatch from 'picomatch';

export type Matcher = (serverSlashTool: string) => boolean;

const NEVER: Matcher = () => false;

/**
 * Compile `server/tool` globs (`orders/get_*`, `kb/*`, `*\/search`) into one matcher.
 * Patterns were validated with the settings; one that still fails to compile matches nothing.
 */
export function compileGlobs(patterns: readonly string[]): Matcher {
  const matchers: Matcher[] = [];
  for (const p of patterns) {
    try {
      matchers.push(picomatch(p, { dot: true, nonegate: true }));
    } catch {
      // validated earlier; never let a bad pattern widen access
    }
  }
  if (matchers.length === 0) return NEVER;
  return (s) => matchers.some((m) => m(s));
}

export function toolKey(server: string, tool: string): string {
  return `${server}/${tool}`;
}
