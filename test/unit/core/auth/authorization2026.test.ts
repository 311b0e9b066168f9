import * as assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { HostOAuthProvider } from '../../../../src/core/auth/hostOAuthProvider';
import { HOST_ISSUER_CHECK, MetadataIssuerMismatchError } from '../../../../src/core/auth/metadataIssuer';
import { withOfflineAccess } from '../../../../src/core/auth/signIn';
import { AuthTestKit, textOf } from './authTestKit';

/**
 * The authorization rules of MCP 2026-07-28 (issue 27, item 4), against the OAuth fixture on
 * 127.0.0.1: registration metadata, the metadata issuer check (RFC 8414 §3.3), offline_access only
 * where the authorization server lists it, credentials per authorization server, and a configured
 * client ID metadata document.
 */
describe('core/auth: MCP 2026-07-28 authorization rules', () => {
  let kit: AuthTestKit;
  beforeEach(() => (kit = new AuthTestKit()));
  afterEach(() => kit.dispose());

  it('dynamic registration says application_type "native" (a loopback redirect)', async () => {
    const f = await kit.fixture();
    assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
    assert.equal(f.log.registrations.length, 1);
    assert.equal(f.log.registrations[0].applicationType, 'native');
  });

  describe('the metadata issuer (RFC 8414 §3.3)', () => {
    it('metadata naming another issuer is not used: the sign-in fails saying why, nothing is registered, opened or sent', async () => {
      const f = await kit.fixture({ metadataIssuer: 'https://attacker.example.com' });
      const r = await kit.signIn(f.mcpUrl);
      assert.equal(r.kind, 'failed');
      // Our check's words (SDK 1.x) or SDK v2's own RFC 8414 §3.3 check, which now runs first.
      assert.match((r as { reason: string }).reason, /(names the issuer|RFC 8414 §3\.3\): expected "[^"]+", received) "https:\/\/attacker\.example\.com"/);
      assert.equal(f.log.registrations.length, 0);
      assert.equal(f.log.authorizations.length, 0);
      assert.equal(f.log.tokenRequests.length, 0);
      assert.equal(kit.browser.opened.length, 0);
      assert.equal(kit.storedText().includes('attacker'), false, 'the lying metadata is not kept');
    });

    it('a connection without a sign-in fails with that error too, not with "needs sign-in"', async () => {
      const f = await kit.fixture({ metadataIssuer: 'http://127.0.0.1:9' });
      const client = new Client({ name: 't', version: '1' });
      const authProvider = new HostOAuthProvider({ serverUrl: f.mcpUrl, store: kit.store });
      await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(f.mcpUrl), { authProvider, ...HOST_ISSUER_CHECK })), (e: unknown) => e instanceof MetadataIssuerMismatchError && /RFC 8414/.test(e.message));
      await client.close();
      assert.equal(f.log.registrations.length, 0);
    });

    it('metadata stored before the check was made is discovered again, and then refused', async () => {
      const f = await kit.fixture({ metadataIssuer: 'https://attacker.example.com' });
      await kit.store.set({ serverUrl: f.mcpUrl }, 'discovery', {
        authorizationServerUrl: f.issuer,
        resourceMetadata: { resource: f.mcpUrl, authorization_servers: [f.issuer] },
        authorizationServerMetadata: {
          issuer: 'https://attacker.example.com',
          authorization_endpoint: `${f.issuer}/authorize`,
          token_endpoint: `${f.issuer}/token`,
          response_types_supported: ['code'],
        },
      });
      const provider = new HostOAuthProvider({ serverUrl: f.mcpUrl, store: kit.store });
      assert.equal(await provider.discoveryState(), undefined);
      assert.equal(await provider.currentIssuer(), undefined);
    });
    it('a 2025-03-26 server (no resource metadata) names no issuer identifier: its metadata is used whatever issuer it names', async () => {
      // As the official suite's auth/2025-03-26-oauth-metadata-backcompat serves it.
      const f = await kit.fixture({ prm: 'none', authServer: 'legacyMetadata', metadataIssuer: (issuer) => `${issuer}/oauth` });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.equal(f.log.registrations.length, 1);
      // The tokens are kept under the issuer the SDK names (the metadata's), so the next connection (a
      // later CLI command) presents them without signing in again.
      await c.close();
      const again = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await again.callTool('echo', { text: 'y' })), 'echo: y');
      assert.equal(kit.signIns.length, 1);
      assert.deepEqual(await kit.store.issuers(f.mcpUrl), [`${f.issuer}/oauth`]);
    });
  });

  describe('offline_access (SEP-2207)', () => {
    it('asked for when the authorization server lists it', async () => {
      const f = await kit.fixture({ scopesSupported: ['mcp:basic'], authorizationServerScopes: ['mcp:basic', 'offline_access'] });
      assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
      assert.equal(f.log.authorizations[0].scope, 'mcp:basic offline_access');
    });

    it('never asked for when it does not, even where the resource or the settings name it', async () => {
      const f = await kit.fixture({ scopesSupported: ['mcp:basic', 'offline_access'], authorizationServerScopes: ['mcp:basic'] });
      assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
      assert.equal(f.log.authorizations[0].scope, 'mcp:basic');
      assert.equal(f.log.registrations[0].scope, 'mcp:basic');
      assert.equal((await kit.signIn(f.mcpUrl, { grant: 'authorization_code', scopes: ['offline_access', 'issues:read'] })).kind, 'signedIn');
      assert.equal(f.log.authorizations[1].scope, 'issues:read');
    });

    it('withOfflineAccess: the rule on its own', () => {
      assert.equal(withOfflineAccess('a b', ['a', 'offline_access']), 'a b offline_access');
      assert.equal(withOfflineAccess('a offline_access', ['a', 'offline_access']), 'a offline_access');
      assert.equal(withOfflineAccess('a offline_access', ['a']), 'a');
      assert.equal(withOfflineAccess('offline_access', undefined), undefined);
      assert.equal(withOfflineAccess(undefined, ['offline_access']), undefined, 'no scope at all stays no scope');
    });
  });

  describe('credentials per authorization server', () => {
    it('a server that moves to another authorization server: the new one gets a registration of its own, never the old client', async () => {
      const f = await kit.fixture({ secondAuthorizationServer: true });
      const first = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await first.callTool('echo', { text: 'one' })), 'echo: one');
      const oldClient = f.log.registrations.length === 1 ? f.log.authorizations[0].clientId : undefined;
      assert.ok(oldClient);
      await first.close();

      f.moveToSecondAuthorizationServer();
      const second = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await second.callTool('echo', { text: 'two' })), 'echo: two');
      const atSecond = (e: { issuer: string }) => e.issuer === f.secondIssuer;
      assert.equal(f.log.registrations.filter(atSecond).length, 1, 'registered at the new authorization server');
      assert.ok(!f.log.authorizations.filter(atSecond).some((a) => a.clientId === oldClient), 'the old client is never presented there');
      assert.ok(!f.log.tokenRequests.filter(atSecond).some((t) => t.clientId === oldClient));
      assert.deepEqual((await kit.store.issuers(f.mcpUrl)).sort(), [f.issuer, f.secondIssuer].sort(), 'each keeps its own credentials');
      assert.equal((kit.signIns.at(-1) as { issuer: string }).issuer, f.secondIssuer);
    });
  });

  describe('a client ID metadata document', () => {
    it('the configured document is the client where the authorization server takes documents, also after another one was used', async () => {
      const f = await kit.fixture({ clientIdMetadataDocuments: true });
      const a = 'https://mcp-host.example/a.json';
      const b = 'https://mcp-host.example/b.json';
      assert.equal((await kit.signIn(f.mcpUrl, { grant: 'authorization_code', clientMetadataUrl: a })).kind, 'signedIn');
      assert.equal((await kit.signIn(f.mcpUrl, { grant: 'authorization_code', clientMetadataUrl: b })).kind, 'signedIn');
      assert.deepEqual(f.log.authorizations.map((x) => x.clientId), [a, b]);
      assert.equal(f.log.registrations.length, 0);
    });

    it('not used where the authorization server does not take documents: dynamic registration', async () => {
      const f = await kit.fixture({ clientIdMetadataDocuments: false });
      assert.equal((await kit.signIn(f.mcpUrl, { grant: 'authorization_code', clientMetadataUrl: 'https://mcp-host.example/a.json' })).kind, 'signedIn');
      assert.equal(f.log.registrations.length, 1);
      assert.match(f.log.authorizations[0].clientId ?? '', /^client-/);
    });
  });
});
