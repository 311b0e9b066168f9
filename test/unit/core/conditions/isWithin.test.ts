/**
 * isWithin: the path check argument rules lean on. Real directories and symbolic links in a temp
 * folder; every traversal form a model (or an injected instruction) might try.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { canonicalPath, isWithin, PathJudgementError } from '../../../../src/core/conditions/isWithin';

describe('isWithin', () => {
  let root: string;
  let ws: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'iswithin-')));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'x');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const ctx = () => ({ base: ws, home: path.join(root, 'home') });
  const within = (p: string, dir = ws) => isWithin(p, dir, ctx());

  it('plain absolute paths: inside, the folder itself, outside, a sibling with a common prefix', () => {
    assert.equal(within(path.join(ws, 'src', 'a.ts')), true);
    assert.equal(within(path.join(ws, 'new-dir', 'new-file.txt')), true, 'a path that does not exist yet');
    assert.equal(within(ws), true);
    assert.equal(within(`${ws}/`), true);
    assert.equal(within(path.join(outside, 'secret.txt')), false);
    assert.equal(within('/etc/passwd'), false);
    assert.equal(within(`${ws}-evil/x`), false, '"/ws-evil" is not inside "/ws"');
  });

  it('"..", "." and duplicate separators are normalised before comparing', () => {
    assert.equal(within(`${ws}/../outside/secret.txt`), false);
    assert.equal(within(`${ws}/src/../../outside/secret.txt`), false);
    assert.equal(within(`${ws}/../../../../../../etc/passwd`), false);
    assert.equal(within(`${ws}//src///./a.ts`), true);
    assert.equal(within(`${ws}/src/../a.ts`), true);
    assert.equal(within(`${ws}/./.`), true);
  });

  it('relative paths resolve against the workspace folder; without one they cannot be judged', () => {
    assert.equal(within('src/a.ts'), true);
    assert.equal(within('./a.ts'), true);
    assert.equal(within('../outside/secret.txt'), false);
    assert.equal(within('src/../../outside/secret.txt'), false);
    assert.equal(within('..'), false);
    assert.throws(() => isWithin('src/a.ts', ws, {}), PathJudgementError);
  });

  it('the directory is normalised too', () => {
    assert.equal(within(path.join(ws, 'src', 'a.ts'), `${ws}/src/../src/`), true);
    assert.equal(within(path.join(ws, 'a.ts'), `${ws}//src`), false);
  });

  it('symbolic links are followed: out of the workspace is outside, into it is inside', () => {
    fs.symlinkSync(outside, path.join(ws, 'link-out'));
    fs.symlinkSync(path.join(ws, 'src'), path.join(root, 'link-in'));
    assert.equal(within(path.join(ws, 'link-out', 'secret.txt')), false, 'an existing file behind a link');
    assert.equal(within(path.join(ws, 'link-out', 'new-file.txt')), false, 'a new file behind a link');
    assert.equal(within(path.join(ws, 'link-out')), false, 'the link itself points outside');
    assert.equal(within(path.join(root, 'link-in', 'a.ts')), true, 'a path outside that is a link into the workspace');
  });

  it('a dangling link counts as its target (writing through it creates the target)', () => {
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    assert.equal(within(path.join(ws, 'dangling')), false);
    fs.symlinkSync(path.join(ws, 'src', 'later.ts'), path.join(ws, 'dangling-in'));
    assert.equal(within(path.join(ws, 'dangling-in')), true);
  });

  it('a workspace reached through a link is compared on its real path', () => {
    const alias = path.join(root, 'ws-alias');
    fs.symlinkSync(ws, alias);
    assert.equal(isWithin(path.join(ws, 'src', 'a.ts'), alias, ctx()), true);
    assert.equal(isWithin(path.join(alias, '..', 'outside', 'secret.txt'), alias, ctx()), false);
  });

  it('a loop of links cannot be judged', () => {
    fs.symlinkSync(path.join(ws, 'b'), path.join(ws, 'a'));
    fs.symlinkSync(path.join(ws, 'a'), path.join(ws, 'b'));
    assert.throws(() => within(path.join(ws, 'a', 'x')), PathJudgementError);
  });

  it('percent-encoded traversal: the readings disagree, so the path cannot be judged (never true)', () => {
    for (const p of [`${ws}/%2e%2e/outside/secret.txt`, `${ws}/%2E%2E%2Foutside`, `${ws}/src/..%2f..%2foutside`, `${ws}/%252e%252e/outside`]) {
      assert.throws(() => within(p), PathJudgementError, p);
    }
    assert.equal(within(`${ws}/a%20file.txt`), true, 'harmless escapes agree under every reading');
    assert.equal(within(`${ws}/100%`), true, 'a lone % is just a character');
    assert.equal(within('/etc/%2e%2e/passwd'), false, 'outside under every reading');
  });

  it('backslashes: a server that splits on them must not be able to climb out', () => {
    assert.throws(() => within(`${ws}/..\\outside\\secret.txt`), PathJudgementError);
    assert.equal(within(`${ws}/src\\a.ts`), true, 'inside whether "\\" separates or not');
  });

  it('~ is the home folder (as server-filesystem expands it), file:// URLs are paths', () => {
    assert.equal(within('~/notes.txt'), false);
    assert.equal(canonicalPath('~/notes.txt', ctx()), path.join(root, 'home', 'notes.txt'));
    assert.equal(within(pathToFileURL(path.join(ws, 'src', 'a.ts')).href), true);
    assert.equal(within(pathToFileURL(path.join(outside, 'secret.txt')).href), false);
    assert.equal(within(`file://${ws}/%2e%2e/outside/secret.txt`), false, 'a file URL is decoded once, by definition');
    assert.equal(within('~user/x'), true, '"~user" is not expanded: a relative name like any other');
  });

  it('empty paths and NUL characters cannot be judged', () => {
    assert.throws(() => within(''), PathJudgementError);
    assert.throws(() => within(`${ws}/a\0/../../etc/passwd`), PathJudgementError);
  });

  it('canonicalPath resolves links and dots', () => {
    fs.symlinkSync(outside, path.join(ws, 'link-out'));
    assert.equal(canonicalPath(`${ws}/src/../link-out/secret.txt`, ctx()), path.join(outside, 'secret.txt'));
    assert.equal(canonicalPath('src//b.ts', ctx()), path.join(ws, 'src', 'b.ts'));
  });
});
