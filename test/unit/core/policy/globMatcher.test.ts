/**
 * compileGlobs (on a `server/tool` key) and compileToolGlobs (on the two names, with its
 * string-comparison path for the usual shapes `*\/*`, `kb/*`, `*\/get_*`, `orders/get_*`,
 * `kb/search`) answer exactly as picomatch (dot: true, nonegate): checked on every pair of
 * generated patterns and keys, with the edge cases that picomatch treats specially (".", "..",
 * leading dots, empty sides, extra slashes).
 */
import * as assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { compileGlobs, compileToolGlobs, toolKey } from '../../../../src/core/policy/globMatcher';

const OPTIONS = { dot: true, nonegate: true, windows: process.platform === 'win32' };

const SEGMENTS = ['', '.', '..', '...', '.x', 'x.', 'a..b', 'kb', 'KB', 'get_', 'get_a', 'get_a.b', 'get', 'xget_a', 'search', 'a-b', 'a:b', 'a@b', 'a+b', 'a,b', 'a~b', 'a%b', 'a=b', '∕', 'a∕b', 'é', 'get_∕x', '*', '?'];
const PATTERN_SEGMENTS = ['*', 'kb', 'get_*', 'get*', 'x.', 'a..b', '.x', '..', '.', '?', 'g?t_*', '*_a', '[gk]*', '{kb,get_a}', 'a-b', 'a:b', 'a@b', 'a+b', 'a,b', 'a~b', 'a%b', 'a=b', '**', '+(a)', '@(kb)', 'é', '.*'];

describe('compileGlobs: the same answers as picomatch', () => {
  it('every pattern of two segments (and some of one or three) against every key', () => {
    const patterns = [
      ...PATTERN_SEGMENTS.flatMap((a) => PATTERN_SEGMENTS.map((b) => `${a}/${b}`)),
      '*', 'kb', '*/*/*', '**/*', '**', 'kb/*/x',
    ];
    const keys = [
      ...SEGMENTS.flatMap((a) => SEGMENTS.map((b) => `${a}/${b}`)),
      ...SEGMENTS,
      'a/b/c', 'kb/get_a/', '/kb/x', 'kb//x',
    ];
    let fast = 0;
    let compared = 0;
    for (const p of patterns) {
      const ours = compileGlobs([p]);
      const theirs = picomatch(p, OPTIONS);
      if (/^(\*|[A-Za-z0-9_\-:@=,~%+][A-Za-z0-9_\-:@=,~%+.]*\*?)\/(\*|[A-Za-z0-9_\-:@=,~%+][A-Za-z0-9_\-:@=,~%+.]*\*?)$/.test(p)) fast++;
      for (const k of keys) {
        compared++;
        assert.equal(ours(k), theirs(k), `pattern ${JSON.stringify(p)} on key ${JSON.stringify(k)}`);
      }
    }
    assert.ok(fast >= 50, `${fast} patterns of the usual shapes`);
    assert.ok(compared > 200_000, `${compared} comparisons`);
  });

  it('compileToolGlobs(server, tool) answers as picomatch on toolKey(server, tool), for every pair', () => {
    const names = [...SEGMENTS, 'a/b', 'kb/x', 'a\\b', 'get_a/b', '/', 'x/'];
    let compared = 0;
    for (const p of [...PATTERN_SEGMENTS.flatMap((a) => PATTERN_SEGMENTS.slice(0, 12).map((b) => `${a}/${b}`)), '*', '**', 'a/b/c']) {
      const ours = compileToolGlobs([p]);
      const theirs = picomatch(p, OPTIONS);
      for (const server of names) {
        for (const tool of names) {
          compared++;
          assert.equal(ours(server, tool), theirs(toolKey(server, tool)), `pattern ${JSON.stringify(p)} on server ${JSON.stringify(server)}, tool ${JSON.stringify(tool)}`);
        }
      }
    }
    assert.ok(compared > 200_000, `${compared} comparisons`);
    // Several patterns at once (usual and other shapes mixed), the server changing between calls.
    const mixed = ['kb/*', '*/get_*', '{kb,x.}/a*', '*/search', 'a..b/*', '.x/*'];
    for (let i = 0; i < mixed.length; i++) {
      const set = [mixed[i], mixed[(i + 2) % mixed.length], mixed[(i + 3) % mixed.length]];
      const ours = compileToolGlobs(set);
      const theirs = set.map((p) => picomatch(p, OPTIONS));
      for (const tool of names) {
        for (const server of names) {
          assert.equal(ours(server, tool), theirs.some((m) => m(toolKey(server, tool))), `patterns ${JSON.stringify(set)} on ${JSON.stringify(server)}, ${JSON.stringify(tool)}`);
        }
      }
    }
    const two = compileToolGlobs(['kb/*', '{orders,crm}/get_*']);
    assert.deepEqual([two('kb', 'x'), two('crm', 'get_a'), two('crm', 'put')], [true, true, false]);
    assert.equal(compileToolGlobs([])('kb', 'x'), false);
  });

  it('a "/" in a tool name is matched like any other character of the tool part', () => {
    const m = compileGlobs(['github/issues*']);
    assert.equal(m(toolKey('github', 'issues/list')), true);
    assert.equal(m(toolKey('github', 'pulls/list')), false);
    assert.equal(compileGlobs(['*/*'])(toolKey('a', 'b/c')), true);
  });

  it('several patterns: any match; none: nothing matches', () => {
    const m = compileGlobs(['kb/*', '*/get_*']);
    assert.deepEqual(['kb/x', 'orders/get_a', 'orders/put'].map(m), [true, true, false]);
    assert.equal(compileGlobs([])('kb/x'), false);
  });

  it('compileToolGlobs: sets of usual patterns (any, names and prefixes merged per server) answer as picomatch', () => {
    // The tool sides of the usual shapes are merged into one test per server: every mix of them.
    const usual = ['*/*', 'kb/*', '*/get_*', 'kb/get_*', '*/search', 'kb/search', 'get_*/x.', '*/a..b', 'a-b/get*', '*/..', '*/kb'];
    const names = [...SEGMENTS, 'a/b', 'get_a/b'];
    let compared = 0;
    for (let mask = 1; mask < 1 << usual.length; mask += 7) {
      const set = usual.filter((_, i) => mask & (1 << i));
      const ours = compileToolGlobs(set);
      const theirs = set.map((p) => picomatch(p, OPTIONS));
      for (const server of names) {
        for (const tool of names) {
          compared++;
          assert.equal(ours(server, tool), theirs.some((m) => m(toolKey(server, tool))), `patterns ${JSON.stringify(set)} on ${JSON.stringify(server)}, ${JSON.stringify(tool)}`);
        }
      }
    }
    assert.ok(compared > 200_000, `${compared} comparisons`);
  });

  it('compileToolGlobs: more usual patterns than its per-server cache keys (31+) still answer as picomatch', () => {
    const set = Array.from({ length: 40 }, (_, i) => [`s${i}/*`, `*/t${i}`, `s${i}*/get_*`, `s${i}/t${i}`][i % 4]);
    const ours = compileToolGlobs(set);
    const theirs = set.map((p) => picomatch(p, OPTIONS));
    const names = ['s1', 's2', 's12', 's13', 's39', 't1', 't2', 't3', 'get_a', 'x', '.', '..', ''];
    for (const server of names) {
      for (const tool of names) {
        assert.equal(ours(server, tool), theirs.some((m) => m(toolKey(server, tool))), `${JSON.stringify(server)}, ${JSON.stringify(tool)}`);
      }
    }
  });
});
