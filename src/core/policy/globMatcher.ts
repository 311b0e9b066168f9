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
  const compiled: { regex: Matcher; parts?: readonly [SegmentTest, ToolPart] }[] = [];
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
  /** The tool parts of the usual patterns whose server part matches lastServer, as one test. */
  let tests = NO_TOOL;
  /** The patterns that are not of a usual shape (matched by regex on the key). */
  const others = compiled.filter((c) => !c.parts).map((c) => c.regex);
  const usual = compiled.flatMap((c) => (c.parts ? [c.parts] : []));
  /** Which usual patterns' server parts match (a bit each) → their merged tool test: most servers share one. */
  const testsByMatch = new Map<number, ToolTests>();
  return (server, tool) => {
    if (server !== lastServer) {
      lastServer = server;
      usualServer = server !== '' && !server.includes('/') && !(WINDOWS && server.includes('\\'));
      tests = usualServer ? testsFor(server, usual, testsByMatch) : NO_TOOL;
    }
    if (usualServer && tool !== '' && !(WINDOWS && tool.includes('\\'))) {
      // A usual tool part never matches "." or ".." but as `*`, whose test is exactly that.
      if (tests.any && tool !== '.' && tool !== '..') return true;
      if (tests.names !== undefined && tests.names.has(tool)) return true;
      // Most tools fail every prefix at the first character: look at that before calling startsWith.
      const prefixes = tests.prefixes;
      if (prefixes.length) {
        const first = tool.charCodeAt(0);
        for (let i = 0; i < prefixes.length; i++) if (tests.firsts[i] === first && tool.startsWith(prefixes[i])) return true;
      }
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

/** Whether a non-empty server name matches the server side of a pattern. */
type SegmentTest = (name: string) => boolean;

/** The tool side of a usual pattern: `*` (any name but "." and ".."), a name, or a name's start. */
type ToolPart = { readonly any: true } | { readonly name: string } | { readonly prefix: string };

/** Tool parts, merged: one test in straight-line code instead of a call per pattern. */
interface ToolTests {
  readonly any: boolean;
  readonly names: ReadonlySet<string> | undefined;
  readonly prefixes: readonly string[];
  /** The first character (code unit) of each prefix. */
  readonly firsts: readonly number[];
}

const NO_TOOL: ToolTests = { any: false, names: undefined, prefixes: [], firsts: [] };

/** The merged tool test of the usual patterns whose server part matches `server`. */
function testsFor(server: string, usual: readonly (readonly [SegmentTest, ToolPart])[], cache: Map<number, ToolTests>): ToolTests {
  if (usual.length > 30) return toolTests(usual.filter(([s]) => s(server)).map(([, t]) => t));
  let match = 0;
  for (let i = 0; i < usual.length; i++) if (usual[i][0](server)) match |= 1 << i;
  let tests = cache.get(match);
  if (!tests) {
    tests = toolTests(usual.filter((_, i) => match & (1 << i)).map(([, t]) => t));
    cache.set(match, tests);
  }
  return tests;
}

function toolTests(parts: readonly ToolPart[]): ToolTests {
  if (parts.length === 0) return NO_TOOL;
  let any = false;
  const names: string[] = [];
  const prefixes: string[] = [];
  for (const p of parts) {
    if ('any' in p) any = true;
    else if ('name' in p) names.push(p.name);
    else prefixes.push(p.prefix);
  }
  // One object shape for every server (no spread), so the per-tool test reads fast properties.
  return { any, names: names.length ? new Set(names) : undefined, prefixes, firsts: prefixes.map((p) => p.charCodeAt(0)) };
}

/** The server test and tool part of a pattern of one of the usual shapes; undefined for any other. */
function simpleParts(glob: string): readonly [SegmentTest, ToolPart] | undefined {
  const slash = glob.indexOf('/');
  if (slash < 0 || glob.indexOf('/', slash + 1) >= 0) return undefined;
  const server = segmentTest(glob.slice(0, slash));
  const tool = toolPart(glob.slice(slash + 1));
  return server && tool ? [server, tool] : undefined;
}

function segmentTest(part: string): SegmentTest | undefined {
  const p = toolPart(part);
  if (!p) return undefined;
  if ('any' in p) return (name) => name !== '.' && name !== '..';
  if ('name' in p) return (name) => name === p.name;
  return (name) => name.startsWith(p.prefix);
}

function toolPart(part: string): ToolPart | undefined {
  if (part === '*') return { any: true };
  if (LITERAL.test(part)) return { name: part };
  const prefix = part.slice(0, -1);
  if (part.endsWith('*') && LITERAL.test(prefix)) return { prefix };
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
