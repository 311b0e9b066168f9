import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { HOST_ISSUER_CHECK } from '../../../../src/core/auth/metadataIssuer';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { HostOAuthProvider } from '../../../../src/core/auth/hostOAuthProvider';
import { SignInRequiredError } from '../../../../src/core/auth/signInRequiredError';
import { SignInStoppedError } from '../../../../src/core/auth/withSignIn';
import { AuthTestKit, textOf } from './authTestKit';

/** Real flows: the SDK Client over Streamable HTTP with the host's providers, against the fixture. */
describe('core/auth: sign-in flows against the OAuth fixture', () => {
  let kit: AuthTestKit;
  beforeEach(() => (kit = new AuthTestKit()));
  afterEach(() => kit.dispose());

  describe('discovery', () => {
    it('path-specific resource metadata, named in WWW-Authenticate; registers (DCR) and calls a tool', async () => {
      const f = await kit.fixture({ prm: 'path' });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'hi' })), 'echo: hi');
      assert.deepEqual(kit.signIns.map((r) => r.kind), ['signedIn']);
      assert.ok(f.log.metadata.some((m) => m.path === '/.well-known/oauth-protected-resource/mcp' && m.status === 200));
      assert.ok(!f.log.metadata.some((m) => m.path === '/.well-known/oauth-protected-resource'), 'never asks the root when the path-specific one answers');
      assert.equal(f.log.registrations.length, 1);
      assert.equal(f.log.registrations[0].clientName, 'MCP Host');
      assert.match(f.log.registrations[0].redirectUris[0], /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal(f.log.authorizations[0].codeChallengeMethod, 'S256');
      assert.equal(f.log.authorizations[0].hasState, true);
    });

    it('path-specific metadata without a WWW-Authenticate pointer: found at the well-known path', async () => {
      const f = await kit.fixture({ prm: 'path', prmInChallenge: false });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.ok(f.log.metadata.some((m) => m.path === '/.well-known/oauth-protected-resource/mcp' && m.status === 200));
    });

    it('root resource metadata (after the path-specific location answers 404)', async () => {
      const f = await kit.fixture({ prm: 'root', prmInChallenge: false });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      const paths = f.log.metadata.filter((m) => m.server === 'resource').map((m) => `${m.status} ${m.path}`);
      assert.ok(paths.indexOf('404 /.well-known/oauth-protected-resource/mcp') < paths.indexOf('200 /.well-known/oauth-protected-resource'), paths.join(', '));
      // The resource is the origin here, and that is what was asked for.
      assert.equal(f.log.authorizations[0].resource, new URL(f.mcpUrl).origin);
    });

    it('an issuer with a path, and OpenID discovery instead of RFC 8414 metadata', async () => {
      const f = await kit.fixture({ issuerPath: '/tenant1', openIdConfiguration: true });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.ok(f.log.metadata.some((m) => m.server === 'authorization' && m.path === '/tenant1/.well-known/openid-configuration' && m.status === 200));
      assert.ok(!f.log.metadata.some((m) => m.path === '/.well-known/oauth-authorization-server'), 'never the root of a path issuer');
      assert.equal((kit.signIns[0] as { issuer: string }).issuer, f.issuer);
    });

    it('2025-03-26 servers: no resource metadata, authorization server metadata on the MCP origin', async () => {
      const f = await kit.fixture({ prm: 'none', authServer: 'legacyMetadata' });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.ok(f.log.metadata.some((m) => m.path === '/.well-known/oauth-authorization-server' && m.status === 200));
      assert.equal(f.log.authorizations.length, 1);
      assert.equal(f.log.authorizations[0].resource, undefined, 'no resource parameter without resource metadata');
    });

    it('2025-03-26 servers without any metadata: the default /authorize, /token and /register', async () => {
      const f = await kit.fixture({ prm: 'none', authServer: 'legacyDefaultEndpoints' });
      const c = await kit.connect(f.mcpUrl);
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.equal(f.log.registrations.length, 1);
      assert.equal(f.log.tokenRequests[0].outcome, 'issued');
    });
  });

  describe('clients', () => {
    it('a client ID metadata document: its URL is the client_id and nothing is registered', async () => {
      const f = await kit.fixture({ clientIdMetadataDocuments: true });
      const clientMetadataUrl = 'https://mcp-host.example/client.json';
      const c = await kit.connect(f.mcpUrl, { grant: 'authorization_code', clientMetadataUrl });
      assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
      assert.equal(f.log.registrations.length, 0);
      assert.equal(f.log.authorizations[0].clientId, clientMetadataUrl);
      assert.equal(f.log.tokenRequests[0].authMethod, 'none');
    });

    it('a metadata document URL falls back to registration when the server does not support documents', async () => {
      const f = await kit.fixture({ clientIdMetadataDocuments: false });
      const c = await kit.connect(f.mcpUrl, { grant: 'authorization_code', clientMetadataUrl: 'https://mcp-host.example/client.json' });
      await c.callTool('echo', { text: 'x' });
      assert.equal(f.log.registrations.length, 1);
    });

    it('a pre-registered client (no registration endpoint) authenticates with its secret; the secret is not stored', async () => {
      const f = await kit.fixture({
        dynamicRegistration: false,
        tokenAuthMethods: ['client_secret_basic'],
        preRegistered: [{ clientId: 'acme-host', clientSecret: 'pre-registered-secret-value' }],
      });
      const settings = { grant: 'authorization_code' as const, clientId: 'acme-host', clientSecret: 'pre-registered-secret-value' };
      const c = await kit.connect(f.mcpUrl, settings);
      assert.equal(textOf(await c.callTool('whoami')), JSON.stringify({ clientId: 'acme-host', scopes: [] }));
      assert.equal(f.log.authorizations[0].clientId, 'acme-host');
      assert.deepEqual(f.log.tokenRequests.map((t) => t.authMethod), ['client_secret_basic']);
      assert.ok(!kit.storedText().includes('pre-registered-secret-value'));
      assert.match(kit.storedText(), /"client_id": "acme-host"/, 'the binding to the issuer is kept');
    });

    for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const) {
      it(`token endpoint auth method ${method} (the one the server registered the client for)`, async () => {
        const f = await kit.fixture({ tokenAuthMethods: [method], registeredAuthMethod: method });
        const c = await kit.connect(f.mcpUrl);
        assert.equal(textOf(await c.callTool('echo', { text: 'x' })), 'echo: x');
        assert.deepEqual(f.log.tokenRequests.map((t) => `${t.authMethod} ${t.outcome}`), [`${method} issued`]);
      });
    }

    it('a registration made for another redirect port is made again on the next sign-in', async () => {
      const f = await kit.fixture();
      assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
      assert.equal((await kit.signIn(f.mcpUrl)).kind, 'signedIn');
      assert.equal(f.log.registrations.length, 2);
      assert.notEqual(f.log.registrations[0].redirectUris[0], f.log.registrations[1].redirectUris[0]);
    });

    it('a configured client bound to one authorization server is not presented to another', async () => {
      const f1 = await kit.fixture({ preRegistered: [{ clientId: 'acme-host' }] });
      const settings = { grant: 'authorization_code' as const, clientId: 'acme-host' };
      assert.equal((await kit.signIn(f1.mcpUrl, settings)).kind, 'signedIn');
      // The same server URL now names another authorization server (simulated by copying the binding).
      const f2 = await kit.fixture({ preRegistered: [{ clientId: 'acme-host' }] });
      const doc = JSON.parse(kit.storedText());
      doc.servers[f2.mcpUrl] = { issuers: doc.servers[f1.mcpUrl].issuers };
      fs.writeFileSync(kit.credentialsFile, JSON.stringify(doc), { mode: 0o600 });
      const r = await kit.signIn(f2.mcpUrl, settings);
      assert.equal(r.kind, 'failed');
      assert.match((r as { reason: string }).reason, /first used with the authorization server/);
      assert.equal(f2.log.authorizations.length, 0);
      assert.equal(f2.log.tokenRequests.length, 0);
    });
  });

  describe('scope selection', () => {
    it('the scope of the WWW-Authenticate challenge', async () => {
      const f = await kit.fixture({ challengeScope: 'mcp:basic', scopesSupported: ['mcp:basic', 'mcp:read', 'mcp:write'] });
      const c = await kit.connect(f.mcpUrl);
      await c.callTool('echo', { text: 'x' });
      assert.equal(f.log.authorizations[0].scope, 'mcp:basic');
    });

    it('else every scope in scopes_supported', async () => {
      const f = await kit.fixture({ scopesSupported: ['mcp:basic', 'mcp:read', 'mcp:write'] });
      const c = await kit.connect(f.mcpUrl);
      await c.callTool('echo', { text: 'x' });
      assert.equal(f.log.authorizations[0].scope, 'mcp:basic mcp:read mcp:write');
    });

    it('else no scope parameter at all', async () => {
      const f = await kit.fixture({});
      const c = await kit.connect(f.mcpUrl);
      await c.callTool('echo', { text: 'x' });
      assert.equal(f.log.authorizations[0].scope, undefined);
    });

    it('configured scopes win over the challenge and scopes_supported', async () => {
      const f = await kit.fixture({ challengeScope: 'mcp:basic', scopesSupported: ['mcp:basic', 'issues:read'] });
      const c = await kit.connect(f.mcpUrl, { grant: 'authorization_code', scopes: ['issues:read'] });
      assert.deepEqual(JSON.parse(textOf(await c.callTool('whoami'))).scopes, ['issues:read']);
      assert.equal(f.log.authorizations[0].scope, 'issues:read');
    });
  });

  describe('the resource (RFC 8707) and refusals', () => {
    it('sends the resource of the metadata in the authorization and the token request; the token only reaches that server', async () => {
      const f = await kit.fixture();
      const other = await kit.fixture();
      const c = await kit.connect(f.mcpUrl);
      await c.callTool('echo', { text: 'x' });
      assert.equal(f.log.authorizations[0].resource, f.mcpUrl);
      assert.equal(f.log.tokenRequests[0].resource, f.mcpUrl);
      // Another server with the same store: nothing is kept for its URL, so no token is sent there.
      const client = new Client({ name: 't', version: '1' });
      const authProvider = new HostOAuthProvider({ serverUrl: other.mcpUrl, store: kit.store });
      await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(other.mcpUrl), { authProvider, ...HOST_ISSUER_CHECK })), SignInRequiredError);
      await client.close();
      assert.ok(other.log.mcp.length > 0 && other.log.mcp.every((m) => !m.bearer), 'no bearer token reached the other server');
    });

    it('refuses to authorize when the resource metadata names another resource', async () => {
      const f = await kit.fixture({ prmResource: 'https://evil.example.com/mcp', checkResource: false });
      const r = await kit.signIn(f.mcpUrl);
      assert.equal(r.kind, 'failed');
      assert.match((r as { reason: string }).reason, /does not match/);
      assert.equal(f.log.authorizations.length, 0, 'no authorization request');
      assert.equal(f.log.registrations.length, 0, 'no registration either');
      assert.equal(kit.browser.opened.length, 0, 'no browser');
    });

    it('refuses an authorization server that does not announce PKCE', async () => {
      const f = await kit.fixture({ pkce: false });
      const r = await kit.signIn(f.mcpUrl);
      assert.equal(r.kind, 'failed');
      assert.match((r as { reason: string }).reason, /PKCE/);
      assert.equal(kit.browser.opened.length, 0);
    });

    it('checks the RFC 9207 iss of the redirect when the server sends one', async () => {
      const ok = await kit.fixture({ issParameter: true });
      assert.equal((await kit.signIn(ok.mcpUrl)).kind, 'signedIn');
      const wrong = await kit.fixture({ issParameter: 'wrong' });
      const r = await kit.signIn(wrong.mcpUrl);
      assert.equal(r.kind, 'failed');
      assert.match((r as { reason: string }).reason, /mix-up/);
      assert.equal(wrong.log.tokenRequests.length, 0, 'the code is not exchanged');
    });

    it('a user who declines ends in cancelled, and the connection reports why', async () => {
      const f = await kit.fixture({ denyConsent: true });
      await assert.rejects(kit.connect(f.mcpUrl), (e: Error) => e instanceof SignInStoppedError && /cancelled: access was denied/.test(e.message));
      assert.equal(kit.events.at(-1)?.type, 'signInCancelled');
    });
  });

  describe('without a sign-in', () => {
    it('a connection with nothing stored ends in SignInRequiredError naming the issuer, and registers or opens nothing', async () => {
      const f = await kit.fixture();
      const client = new Client({ name: 't', version: '1' });
      const authProvider = new HostOAuthProvider({ serverUrl: f.mcpUrl, store: kit.store });
      await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(f.mcpUrl), { authProvider, ...HOST_ISSUER_CHECK })), (e: unknown) => {
        assert.ok(e instanceof SignInRequiredError, String(e));
        assert.equal(e.issuer, f.issuer);
        return true;
      });
      await client.close();
      assert.equal(f.log.registrations.length, 0);
      assert.equal(f.log.authorizations.length, 0);
      assert.equal(kit.browser.opened.length, 0);
    });
  });

  it('events and errors never contain a token, code, verifier or secret; the file is 0600', async () => {
    const f = await kit.fixture({ registeredAuthMethod: 'client_secret_post', challengeScope: 'mcp:basic' });
    const c = await kit.connect(f.mcpUrl);
    await c.callTool('echo', { text: 'x' });
    const said = JSON.stringify(kit.events) + JSON.stringify(kit.signIns);
    assert.ok(f.secrets.length >= 3, 'the fixture handed out a code, tokens and a client secret');
    for (const s of f.secrets) assert.ok(!said.includes(s), 'a secret leaked into the events');
    assert.deepEqual(kit.events.map((e) => e.type), ['signInStarted', 'signInCompleted']);
    if (process.platform !== 'win32') assert.equal(fs.statSync(kit.credentialsFile).mode & 0o777, 0o600);
  });
});
