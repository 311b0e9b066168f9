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

/** Matches a server's tool (or prompt) against `server/tool` globs without building the key first. */
export type ToolMatcher = (server: string, tool: string) => boolean;

/**
 * compileGlobs for a server and a tool name given apart (the role filter, confirmation rules,
 * argument rules: run for every tool whenever the tool list is built). The shapes nearly every
 * setting uses (`*\/*`, `kb/*`, `*\/get_*`, `orders/get_*`, `kb/search`) test the two names with
 * string comparisons; a quarter of a 25,000-tool build went to regexes before. Exactly picomatch's
 * answer (test/unit/core/policy/globMatcher.test.ts compares them): a `*` segment is any non-empty
 * name but "." and ".."; `get_*` any name starting "get_". Any other pattern, and any unusual name
 * (empty, a "/" in the server, on Windows a backslash, which picomatch reads as "/" there), goes
 * through the regex on the `server/tool` key.
 */
export function compileToolGlobs(patterns: readonly string[]): ToolMatcher {
  const compiled: { regex: Matcher; parts?: readonly [SegmentTest, SegmentTest] }[] = [];
  for (const p of patterns) {
    try {
      compiled.push({ regex: compileGlob(p), parts: simpleParts(p) });
    } catch {
      // validated earlier; never let a bad pattern widen access
    }
  }
  if (compiled.length === 0) return () => false;
  // Calls come server by server (the registry's order): what depends on the server alone (is it a
  // usual name, which patterns' server parts match it) is worked out once and kept for the next.
  let lastServer: string | undefined;
  let usualServer = false;
  /** The tool tests of the usual patterns whose server part matches lastServer. */
  let toolTests: SegmentTest[] = [];
  /** The patterns that are not of a usual shape (matched by regex on the key). */
  const others = compiled.filter((c) => !c.parts).map((c) => c.regex);
  return (server, tool) => {
    if (server !== lastServer) {
      lastServer = server;
      usualServer = server !== '' && !server.includes('/') && !(WINDOWS && server.includes('\\'));
      toolTests = usualServer ? compiled.filter((c) => c.parts && c.parts[0](server)).map((c) => c.parts![1]) : [];
    }
    if (usualServer && tool !== '' && !(WINDOWS && tool.includes('\\'))) {
      for (const test of toolTests) if (test(tool)) return true;
      if (others.length === 0) return false;
      const key = toolKey(server, tool);
      for (const regex of others) if (regex(key)) return true;
      return false;
    }
    const key = toolKey(server, tool);
    for (const c of compiled) if (c.regex(key)) return true;
    return false;
  };
}

const WINDOWS = process.platform === 'win32';
const OPTIONS = { dot: true, nonegate: true, windows: WINDOWS };

/**
 * What `picomatch(glob, OPTIONS)` returns, without its per-call bookkeeping (a result object and
 * option lookups on every test): the same regex, the same literal-equality shortcut, the same
 * empty-input rule and, on Windows, the same backslash-to-slash conversion.
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

/** A literal segment that picomatch reads as itself: no glob syntax, no leading dot, no separator. */
const LITERAL = /^[A-Za-z0-9_\-:@=,~%+][A-Za-z0-9_\-:@=,~%+.]*$/;

/** Whether a non-empty server or tool name matches one side of a pattern. */
type SegmentTest = (name: string) => boolean;

/** The server and tool tests of a pattern of one of the usual shapes; undefined for any other. */
function simpleParts(glob: string): readonly [SegmentTest, SegmentTest] | undefined {
  const slash = glob.indexOf('/');
  if (slash < 0 || glob.indexOf('/', slash + 1) >= 0) return undefined;
  const server = segmentTest(glob.slice(0, slash));
  const tool = segmentTest(glob.slice(slash + 1));
  return server && tool ? [server, tool] : undefined;
}

function segmentTest(part: string): SegmentTest | undefined {
  if (part === '*') return (name) => name !== '.' && name !== '..';
  if (LITERAL.test(part)) return (name) => name === part;
  const prefix = part.slice(0, -1);
  if (part.endsWith('*') && LITERAL.test(prefix)) return (name) => name.startsWith(prefix);
  return undefined;
}

/**
 * The `server/tool` string patterns are matched against. A `/` in a tool name (MCP allows it, for
 * namespaces) becomes U+2215 "∕", so the first `/` still separates server and tool and `*` / `?`
 * in a pattern's tool part match it like any other character (`*\/*`, `github/issues*`).
 */
export function toolKey(server: string, tool: string): string {
  return `${server}/${tool.includes('/') ? tool.replace(/\//g, '\u2215') : tool}`;
}
