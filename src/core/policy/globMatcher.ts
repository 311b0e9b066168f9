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
      matchers.push(compileGlob(p));
    } catch {
      // validated earlier; never let a bad pattern widen access
    }
  }
  if (matchers.length === 0) return NEVER;
  if (matchers.length === 1) return matchers[0];
  return (s) => matchers.some((m) => m(s));
}

const WINDOWS = process.platform === 'win32';
const OPTIONS = { dot: true, nonegate: true, windows: WINDOWS };

/**
 * What `picomatch(glob, OPTIONS)` returns, without its per-call bookkeeping (a result object and
 * option lookups on every test): the same regex, the same literal-equality shortcut, the same
 * empty-input rule and, on Windows, the same backslash-to-slash conversion. The role filter runs
 * this for every tool of every server whenever the tool list is built.
 */
function compileGlob(glob: string): Matcher {
  const re = picomatch.makeRe(glob, OPTIONS);
  return (input) => {
    if (input === '') return false;
    if (input === glob) return true;
    const s = WINDOWS ? input.replace(/\\/g, '/') : input;
    return s === glob || re.test(s);
  };
}

/**
 * The `server/tool` string patterns are matched against. A `/` in a tool name (MCP allows it, for
 * namespaces) becomes U+2215 "∕", so the first `/` still separates server and tool and `*` / `?`
 * in a pattern's tool part match it like any other character (`*\/*`, `github/issues*`).
 */
export function toolKey(server: string, tool: string): string {
  return `${server}/${tool.includes('/') ? tool.replace(/\//g, '\u2215') : tool}`;
}
