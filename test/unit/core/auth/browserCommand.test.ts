import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWithBrowserCommand, type OpenedBrowser } from '../../../../src/core/auth/browserCommand';
import { HostOAuthProvider } from '../../../../src/core/auth/hostOAuthProvider';
import { MemoryCredentialStore } from '../../../../src/core/auth/memoryCredentialStore';
import { isLoopbackHost, whyNotOpenable } from '../../../../src/core/auth/openableUrl';
import { signIn } from '../../../../src/core/auth/signIn';
import { startAuthFixture, type AuthFixture } from '../../../fixtures/auth/authFixture';

const BROWSER_SCRIPT = path.resolve(__dirname, '../../../fixtures/auth/browser.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('core/auth: opening the browser', () => {
  it('opens only https:, or http: on loopback, without user info', () => {
    for (const ok of ['https://auth.example.com/authorize?x=1', 'http://127.0.0.1:5000/authorize', 'http://localhost/a', 'http://[::1]:8/a', 'http://127.9.9.9/']) {
      assert.equal(whyNotOpenable(ok), undefined, ok);
    }
    for (const bad of ['http://auth.example.com/authorize', 'javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'vscode://x', 'https://user:pw@auth.example.com/', 'not a url', 'http://127.0.0.1.evil.com/']) {
      assert.notEqual(whyNotOpenable(bad), undefined, bad);
    }
    assert.equal(isLoopbackHost('127.0.0.256'), false);
  });

  it('the provider never hands a refused URL to openUrl', async () => {
    const opened: URL[] = [];
    const provider = new HostOAuthProvider({
      serverUrl: 'http://127.0.0.1:1/mcp',
      store: new MemoryCredentialStore(),
      interaction: { redirectUrl: 'http://127.0.0.1:2/callback', state: 's', openUrl: async (u) => void opened.push(u) },
    });
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'http://evil.example/authorize']) {
      await assert.rejects(provider.redirectToAuthorization(new URL(bad)), /not opened/);
    }
    assert.equal(opened.length, 0);
    await provider.redirectToAuthorization(new URL('https://auth.example.com/authorize'));
    assert.equal(opened.length, 1);
  });

  it('openWithBrowserCommand refuses such URLs before running anything', async () => {
    const marker = path.join(os.tmpdir(), `mcp-host-browser-${process.pid}-never`);
    await assert.rejects(openWithBrowserCommand(`${process.execPath} -e require('fs').writeFileSync('${marker}','x')`, 'javascript:alert(1)'), /not opening/);
    assert.equal(fs.existsSync(marker), false);
    await assert.rejects(openWithBrowserCommand('/nonexistent/browser', 'https://a.example/'), /could not run the browser command/);
  });

  describe('browser.mjs as BROWSER', () => {
    let f: AuthFixture;
    let dir: string;
    beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-browser-'))));
    afterEach(async () => {
      await f?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('signs in through a BROWSER command that follows the redirects; the process is reaped', async () => {
      f = await startAuthFixture();
      const hops = path.join(dir, 'hops.jsonl');
      const browsers: OpenedBrowser[] = [];
      const r = await signIn({
        serverUrl: f.mcpUrl,
        store: new MemoryCredentialStore(),
        timeoutMs: 30_000,
        openUrl: async (url) => void browsers.push(await openWithBrowserCommand(`${process.execPath} ${BROWSER_SCRIPT}`, url, { ...process.env, BROWSER_FIXTURE_LOG: hops })),
      });
      assert.equal(r.kind, 'signedIn', JSON.stringify(r));
      assert.equal(browsers.length, 1);
      assert.equal(await browsers[0].exited, 0, 'the browser ended on a 2xx page');
      assert.equal(alive(browsers[0].pid as number), false);
      const visited = fs.readFileSync(hops, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; status: number });
      assert.equal(new URL(visited[0].url).pathname, '/authorize');
      assert.equal(visited[0].status, 302);
      assert.match(visited.at(-1)!.url, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
      assert.equal(visited.at(-1)!.status, 200);
    });
  });
});
