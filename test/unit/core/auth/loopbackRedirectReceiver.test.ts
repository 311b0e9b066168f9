import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { LoopbackRedirectReceiver } from '../../../../src/core/auth/loopbackRedirectReceiver';
import { signIn } from '../../../../src/core/auth/signIn';
import { MemoryCredentialStore } from '../../../../src/core/auth/memoryCredentialStore';
import { startAuthFixture, type AuthFixture } from '../../../fixtures/auth/authFixture';

/** Resolves true when something accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function get(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('core/auth: LoopbackRedirectReceiver', () => {
  const receivers: LoopbackRedirectReceiver[] = [];
  const start = async (opts: Partial<Parameters<typeof LoopbackRedirectReceiver.start>[0]> = {}) => {
    const r = await LoopbackRedirectReceiver.start({ state: 'the-state', timeoutMs: 20_000, ...opts });
    receivers.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('listens on 127.0.0.1 only, on a port of its own, at /callback', async () => {
    const a = await start();
    const b = await start();
    assert.match(a.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.notEqual(a.port, b.port);
    assert.equal(await accepts(a.port), true);
  });

  it('takes the code once the state matches exactly, answers a page, and closes', async () => {
    const r = await start();
    const other = await get(`http://127.0.0.1:${r.port}/favicon.ico`);
    assert.equal(other.status, 404, 'other paths do not count');
    const page = await get(`${r.redirectUrl}?code=abc&state=the-state&iss=${encodeURIComponent('https://as.example')}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /Signed in/);
    assert.doesNotMatch(page.body, /abc/, 'the code is not echoed');
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.deepEqual(await r.outcome, { kind: 'code', code: 'abc', iss: 'https://as.example' });
    await r.close();
    assert.equal(r.listening, false);
    assert.equal(await accepts(r.port), false, 'nothing listens after success');
  });

  for (const [name, query] of [
    ['a different state', '?code=abc&state=forged'],
    ['no state', '?code=abc'],
    ['a state that differs only in case', '?code=abc&state=THE-STATE'],
  ] as const) {
    it(`refuses ${name}: the sign-in stops and the listener closes`, async () => {
      const r = await start();
      const page = await get(`${r.redirectUrl}${query}`);
      assert.equal(page.status, 400);
      assert.deepEqual(await r.outcome, { kind: 'stateMismatch' });
      await r.close();
      assert.equal(await accepts(r.port), false);
    });
  }

  it('reports an error answer (access_denied) and closes', async () => {
    const r = await start();
    await get(`${r.redirectUrl}?error=access_denied&error_description=nope&state=the-state`);
    assert.deepEqual(await r.outcome, { kind: 'error', error: 'access_denied', description: 'nope' });
    await r.close();
    assert.equal(await accepts(r.port), false);
  });

  it('a request without code or error is not the redirect and keeps it waiting', async () => {
    const r = await start();
    assert.equal((await get(`${r.redirectUrl}?hello=1`)).status, 400);
    assert.equal(r.listening, true);
    await get(`${r.redirectUrl}?code=c&state=the-state`);
    assert.equal((await r.outcome).kind, 'code');
  });

  it('times out when no redirect comes, and closes', async () => {
    const r = await start({ timeoutMs: 50 });
    assert.deepEqual(await r.outcome, { kind: 'timeout', afterMs: 50 });
    await r.close();
    assert.equal(await accepts(r.port), false, 'nothing listens after an abandoned sign-in');
  });

  it('stops when aborted (also when aborted before it started), and closes', async () => {
    const ac = new AbortController();
    const r = await start({ signal: ac.signal });
    ac.abort();
    assert.deepEqual(await r.outcome, { kind: 'aborted' });
    await r.close();
    assert.equal(await accepts(r.port), false);
    const pre = new AbortController();
    pre.abort();
    const r2 = await start({ signal: pre.signal });
    assert.deepEqual(await r2.outcome, { kind: 'aborted' });
  });

  describe('through signIn: no listener is left open however it ends', () => {
    let f: AuthFixture;
    afterEach(() => f?.close());

    async function ports(run: (openedPorts: number[]) => Promise<unknown>): Promise<number[]> {
      const opened: number[] = [];
      await run(opened);
      return opened;
    }

    it('success', async () => {
      f = await startAuthFixture();
      const used = await ports(async (opened) => {
        const r = await signIn({
          serverUrl: f.mcpUrl,
          store: new MemoryCredentialStore(),
          openUrl: async (url) => {
            opened.push(Number(new URL(url.searchParams.get('redirect_uri') as string).port));
            let u = url;
            for (;;) {
              const res = await fetch(u, { redirect: 'manual' });
              await res.arrayBuffer();
              const loc = res.headers.get('location');
              if (!loc) break;
              u = new URL(loc, u);
            }
          },
        });
        assert.equal(r.kind, 'signedIn');
      });
      assert.equal(used.length, 1);
      assert.equal(await accepts(used[0]), false);
    });

    it('abandoned (the browser never comes back): cancelled after the timeout', async () => {
      f = await startAuthFixture();
      const used = await ports(async (opened) => {
        const r = await signIn({
          serverUrl: f.mcpUrl,
          store: new MemoryCredentialStore(),
          timeoutMs: 100,
          openUrl: async (url) => void opened.push(Number(new URL(url.searchParams.get('redirect_uri') as string).port)),
        });
        assert.deepEqual(r, { kind: 'cancelled', reason: 'no answer from the browser within 100 ms' });
      });
      assert.equal(await accepts(used[0]), false);
    });

    it('cancelled by the caller', async () => {
      f = await startAuthFixture();
      const ac = new AbortController();
      const used = await ports(async (opened) => {
        const r = await signIn({
          serverUrl: f.mcpUrl,
          store: new MemoryCredentialStore(),
          signal: ac.signal,
          openUrl: async (url) => {
            opened.push(Number(new URL(url.searchParams.get('redirect_uri') as string).port));
            ac.abort();
          },
        });
        assert.equal(r.kind, 'cancelled');
      });
      assert.equal(await accepts(used[0]), false);
    });

    it('failure (the browser cannot be opened)', async () => {
      f = await startAuthFixture();
      const used = await ports(async (opened) => {
        const r = await signIn({
          serverUrl: f.mcpUrl,
          store: new MemoryCredentialStore(),
          openUrl: async (url) => {
            opened.push(Number(new URL(url.searchParams.get('redirect_uri') as string).port));
            throw new Error('no browser here');
          },
        });
        assert.deepEqual(r.kind, 'failed');
        assert.match((r as { reason: string }).reason, /no browser here/);
      });
      assert.equal(await accepts(used[0]), false);
    });

    it('failure before any browser (discovery fails): the listener is closed too', async () => {
      // A server URL where nothing listens.
      const probe = await LoopbackRedirectReceiver.start({ state: 's', timeoutMs: 1000 });
      const deadPort = probe.port;
      await probe.close();
      const before = process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
      const r = await signIn({ serverUrl: `http://127.0.0.1:${deadPort}/mcp`, store: new MemoryCredentialStore(), openUrl: async () => undefined });
      assert.equal(r.kind, 'failed');
      const after = process.getActiveResourcesInfo().filter((x) => x === 'TCPServerWrap').length;
      assert.equal(after, before, 'no server handle left behind');
    });
  });
});
