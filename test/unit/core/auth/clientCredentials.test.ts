import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { HOST_ISSUER_CHECK } from '../../../../src/core/auth/metadataIssuer';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ClientCredentialsProvider, signingAlgorithmForKey } from '../../../../src/core/auth/clientCredentialsProvider';
import { AuthTestKit, textOf } from './authTestKit';

function keyPair(kind: 'ec' | 'rsa') {
  const { privateKey, publicKey } =
    kind === 'ec' ? crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }) : crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

describe('core/auth: client_credentials (real flows, never a browser)', () => {
  let kit: AuthTestKit;
  beforeEach(() => (kit = new AuthTestKit()));
  afterEach(() => kit.dispose());

  async function connect(serverUrl: string, provider: ClientCredentialsProvider) {
    const client = new Client({ name: 'cc', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider, ...HOST_ISSUER_CHECK }));
    return client;
  }

  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    it(`with a client secret (${method}, as the server supports)`, async () => {
      const f = await kit.fixture({
        tokenAuthMethods: [method],
        preRegistered: [{ clientId: 'ci-bot', clientSecret: 'ci-bot-secret', authMethod: method, grants: ['client_credentials'] }],
      });
      const provider = new ClientCredentialsProvider({ serverUrl: f.mcpUrl, store: kit.store, clientId: 'ci-bot', clientSecret: 'ci-bot-secret', scopes: ['mcp:ci'] });
      const client = await connect(f.mcpUrl, provider);
      assert.deepEqual(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} }))), { clientId: 'ci-bot', scopes: ['mcp:ci'] });
      await client.close();
      assert.deepEqual(f.log.tokenRequests.map((t) => `${t.grantType} ${t.authMethod} ${t.outcome}`), [`client_credentials ${method} issued`]);
      assert.equal(f.log.tokenRequests[0].resource, f.mcpUrl);
      assert.equal(f.log.authorizations.length, 0, 'no authorization endpoint, no browser');
      assert.ok(!kit.storedText().includes('ci-bot-secret'), 'the secret is never stored');
    });
  }

  for (const kind of ['ec', 'rsa'] as const) {
    it(`with private_key_jwt (${kind === 'ec' ? 'ES256' : 'RS256'}, the algorithm taken from the key)`, async () => {
      const { privateKeyPem, publicKeyPem } = keyPair(kind);
      const f = await kit.fixture({
        tokenAuthMethods: ['private_key_jwt'],
        preRegistered: [{ clientId: 'ci-jwt', publicKeyPem, grants: ['client_credentials'] }],
      });
      const provider = new ClientCredentialsProvider({ serverUrl: f.mcpUrl, store: kit.store, clientId: 'ci-jwt', privateKey: privateKeyPem });
      const client = await connect(f.mcpUrl, provider);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'jwt' } })), 'echo: jwt');
      await client.close();
      assert.deepEqual(f.log.tokenRequests.map((t) => `${t.authMethod} ${t.outcome}`), ['private_key_jwt issued']);
      assert.ok(!kit.storedText().includes('PRIVATE KEY'));
    });
  }

  it('a JWT signed with the wrong key is refused (and nothing is retried forever)', async () => {
    const registered = keyPair('ec');
    const other = keyPair('ec');
    const f = await kit.fixture({ tokenAuthMethods: ['private_key_jwt'], preRegistered: [{ clientId: 'ci-jwt', publicKeyPem: registered.publicKeyPem, grants: ['client_credentials'] }] });
    const provider = new ClientCredentialsProvider({ serverUrl: f.mcpUrl, store: kit.store, clientId: 'ci-jwt', privateKey: other.privateKeyPem, signingAlgorithm: 'ES256' });
    await assert.rejects(connect(f.mcpUrl, provider));
    assert.ok(f.log.tokenRequests.length >= 1 && f.log.tokenRequests.length <= 2, `${f.log.tokenRequests.length} token requests`);
    assert.ok(f.log.tokenRequests.every((t) => t.outcome === 'invalid_client'));
    assert.deepEqual(await kit.store.issuers(f.mcpUrl), [], 'a client the authorization server refused is bound nowhere');
  });

  it('an expired token is replaced by a new one on the next 401, with the stored binding', async () => {
    const f = await kit.fixture({ preRegistered: [{ clientId: 'ci-bot', clientSecret: 's3cret', grants: ['client_credentials'] }] });
    const make = () => new ClientCredentialsProvider({ serverUrl: f.mcpUrl, store: kit.store, clientId: 'ci-bot', clientSecret: 's3cret' });
    await (await connect(f.mcpUrl, make())).close();
    f.expireAccessTokens();
    const client = await connect(f.mcpUrl, make());
    await client.close();
    assert.deepEqual(f.log.tokenRequests.map((t) => t.outcome), ['issued', 'issued']);
    assert.match(kit.storedText(), /"client_id": "ci-bot"/);
    assert.deepEqual(await kit.store.issuers(f.mcpUrl), [f.issuer], 'bound to the authorization server that issued its tokens');
  });

  it('signingAlgorithmForKey reads the key type; a bad key is refused without quoting it', () => {
    assert.equal(signingAlgorithmForKey(keyPair('ec').privateKeyPem), 'ES256');
    assert.equal(signingAlgorithmForKey(keyPair('rsa').privateKeyPem), 'RS256');
    assert.throws(() => signingAlgorithmForKey('not-a-key-VERYSECRET'), (e: Error) => !e.message.includes('VERYSECRET'));
  });
});
