import * as assert from 'node:assert/strict';
import { canonicalUri } from '../../../../src/core/policy/canonicalUri';

/** [input, canonical form]: accepted URIs. */
const ACCEPTED: readonly (readonly [string, string])[] = [
  ['file:///guides/a.md', 'file:///guides/a.md'],
  ['FILE:///guides/a.md', 'file:///guides/a.md'],
  ['HTTPS://Example.COM/A/b', 'https://example.com/A/b'],
  ['https://User@Example.com:8080/x', 'https://User@example.com:8080/x'],
  ['https://ex%41mple.com/', 'https://example.com/'],
  // Dot segments, plain and percent-encoded in either case, are resolved.
  ['file:///guides/../private/keys.txt', 'file:///private/keys.txt'],
  ['file:///guides/%2e%2e/private/keys.txt', 'file:///private/keys.txt'],
  ['file:///guides/%2E%2E/private/keys.txt', 'file:///private/keys.txt'],
  ['file:///guides/.%2e/private/keys.txt', 'file:///private/keys.txt'],
  ['file:///guides/./a/%2E/b', 'file:///guides/a/b'],
  ['file:///guides/a/..', 'file:///guides/'],
  ['file:///guides/.', 'file:///guides/'],
  ['file:///guides/a/../', 'file:///guides/'],
  ['file:///guides/..a/b..', 'file:///guides/..a/b..'],
  // Empty segments are kept; a ".." after one removes it (as RFC 3986 and WHATWG URL do).
  ['file:///guides//a', 'file:///guides//a'],
  ['file:///guides//../a', 'file:///guides/a'],
  // Unreserved escapes decoded; other escapes kept as written.
  ['cat://docs/%7Euser/%41bc%2D%5f', 'cat://docs/~user/Abc-_'],
  ['file:///a%20b/%C3%A9', 'file:///a%20b/%C3%A9'],
  ['file:///a%c3%a9', 'file:///a%c3%a9'],
  ['file:///100%25', 'file:///100%25'],
  // Custom schemes: the host's case, dot segments.
  ['cat://Docs/x/../y', 'cat://docs/y'],
  ['ui://widget/Index.html', 'ui://widget/Index.html'],
  ['fixture://catalog/item/{id}', 'fixture://catalog/item/{id}'],
  // Query and fragment keep their slashes, dots and escapes (unreserved ones decoded).
  ['https://h/p?q=a%2Fb&x=../y#frag/../z', 'https://h/p?q=a%2Fb&x=../y#frag/../z'],
  ['https://h/a/../p?q=%41#%7e', 'https://h/p?q=A#~'],
  // No authority: the path is resolved too; its case is kept.
  ['mailto:Ann@Example.com', 'mailto:Ann@Example.com'],
  ['cat:a/b/../c', 'cat:a/c'],
  ['urn:isbn:0451450523', 'urn:isbn:0451450523'],
];

/** [input, what the reason says]: refused URIs. */
const REFUSED: readonly (readonly [string, RegExp])[] = [
  ['file:///guides/..%2fprivate/keys.txt', /contains an encoded "\/" \(%2F\) in its path/],
  ['file:///guides/%2F../private', /contains an encoded "\/" \(%2F\) in its path/],
  ['file:///guides/..%5Cprivate', /contains an encoded backslash \(%5C\) in its path/],
  ['file:///guides/..\\private', /contains a backslash/],
  ['file:///guides/%00', /contains an encoded NUL \(%00\) in its path/],
  ['file:///guides/a\u0000', /contains a NUL character/],
  ['https://h/p?q=%00', /contains an encoded NUL \(%00\) in its query/],
  ['file:///gu\nides', /contains the control character U\+000A/],
  ['file:///gu\tides/../../x', /contains the control character U\+0009/],
  ['file:///guides/%252e%252e/private', /contains an encoded "%" that starts another escape \(%252e\) in its path/],
  ['file:///..', /has a "\.\." segment that climbs above the start of its path/],
  ['file:///guides/../../etc/passwd', /climbs above the start of its path/],
  ['file:///guides/%2e%2e/%2e%2e/etc', /climbs above the start of its path/],
  ['cat:../x', /climbs above the start of its path/],
  ['file:///a%2', /has a "%" not followed by two hex digits in its path/],
  ['file:///a%zz', /has a "%" not followed by two hex digits in its path/],
  ['guides/a.md', /has no scheme/],
  ['', /has no scheme/],
  [' file:///a', /starts or ends with white space/],
  ['https://ex%2Fample.com/', /contains an encoded "\/" \(%2F\) in its authority/],
  ['https://ex%20ample.com/', /has a percent-encoded character in its host/],
];

describe('canonicalUri: the one form resource globs are matched against and servers receive', () => {
  for (const [input, expected] of ACCEPTED) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      const c = canonicalUri(input);
      assert.deepEqual(c, { ok: true, uri: expected });
      // The canonical form is its own canonical form.
      assert.deepEqual(canonicalUri(expected), { ok: true, uri: expected });
    });
  }

  for (const [input, reason] of REFUSED) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      const c = canonicalUri(input);
      assert.equal(c.ok, false, JSON.stringify(c));
      if (!c.ok) {
        assert.match(c.reason, reason);
        assert.ok(c.reason.startsWith(`the URI ${JSON.stringify(input)} `), c.reason);
      }
    });
  }

  it('differential: a WHATWG URL reader finds the same scheme, host, decoded path, query and fragment in the input and in its canonical form', () => {
    const decoded = (s: string) => decodeURIComponent(s);
    let compared = 0;
    for (const [input] of ACCEPTED) {
      // Only URIs with an authority: WHATWG keeps the path of "cat:a/b/../c" opaque (unresolved).
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) continue;
      const canonical = canonicalUri(input);
      assert.ok(canonical.ok);
      const a = new URL(input);
      const b = new URL(canonical.uri);
      const special = ['http:', 'https:', 'file:', 'ws:', 'wss:', 'ftp:'].includes(a.protocol);
      const what = `${input} / ${canonical.uri}`;
      assert.equal(b.protocol, a.protocol, what);
      // WHATWG lowercases the host of special schemes only; ours is lower case for every scheme.
      assert.equal(b.hostname, special ? a.hostname : a.hostname.toLowerCase(), what);
      assert.equal(b.port, a.port, what);
      assert.equal(decoded(b.pathname), decoded(a.pathname), what);
      assert.equal(decoded(b.search), decoded(a.search), what);
      assert.equal(decoded(b.hash), decoded(a.hash), what);
      // WHATWG resolves no dot segment in the canonical form: there is none left.
      assert.equal(b.pathname.split('/').filter((s) => /^(\.|%2e){1,2}$/i.test(s)).length, 0, what);
      compared++;
    }
    assert.ok(compared >= 20, `compared ${compared}`);
  });

  it('differential: where WHATWG URL silently drops a ".." above the root, the canonical form refuses it', () => {
    for (const input of ['file:///..', 'file:///guides/../../etc/passwd', 'file:///guides/%2e%2e/%2e%2e/etc']) {
      assert.equal(new URL(input).pathname.includes('..'), false, 'WHATWG drops it');
      assert.equal(canonicalUri(input).ok, false);
    }
  });
});
