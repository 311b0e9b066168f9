import * as assert from 'node:assert/strict';
import { parseOAuthSettings } from '../../../../src/core/settings/oauthSettings';

const messages = (value: unknown) => parseOAuthSettings(value).problems.map((p) => `${p.path.join('.')}: ${p.message}`);

describe('core/auth: the "oauth" settings of a remote server', () => {
  it('accepts the example of the issue and defaults the grant', () => {
    const r = parseOAuthSettings({
      clientId: 'mcp-host-acme',
      clientSecret: '${secret:TRACKER_CLIENT_SECRET}',
      clientMetadataUrl: 'https://acme.example/mcp-host-client.json',
      scopes: ['issues:read'],
    });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.settings, {
      grant: 'authorization_code',
      clientId: 'mcp-host-acme',
      clientSecret: '${secret:TRACKER_CLIENT_SECRET}',
      clientMetadataUrl: 'https://acme.example/mcp-host-client.json',
      scopes: ['issues:read'],
    });
    assert.deepEqual(parseOAuthSettings({}).settings, { grant: 'authorization_code' });
  });

  it('client_credentials with a secret or a private key (private_key_jwt)', () => {
    assert.deepEqual(parseOAuthSettings({ grant: 'client_credentials', clientId: 'ci', clientSecret: 's' }).problems, []);
    assert.deepEqual(
      parseOAuthSettings({ grant: 'client_credentials', clientId: 'ci', privateKey: '${secret:KEY}', signingAlgorithm: 'ES256' }).settings,
      { grant: 'client_credentials', clientId: 'ci', privateKey: '${secret:KEY}', signingAlgorithm: 'ES256' },
    );
  });

  it('names the exact path, what was expected and what was found', () => {
    assert.deepEqual(messages({ clientId: 5, scopes: ['a', 'b c', 3], grant: 'implicit', extra: true }), [
      'clientId: expected a non-empty string, got number 5',
      'scopes.1: expected a scope (a string without spaces or quotes), got string "b c"',
      'scopes.2: expected a scope (a string without spaces), got number 3',
      'grant: expected "authorization_code" or "client_credentials", got string "implicit"',
      'extra: unknown key "extra" (allowed: clientId, clientSecret, clientMetadataUrl, scopes, grant, privateKey, signingAlgorithm)',
    ]);
    assert.deepEqual(messages('yes'), [': expected an object, got string "yes"']);
  });

  it('never shows a secret value, even a wrong one', () => {
    const all = messages({ clientSecret: 12345, privateKey: ['-----BEGIN PRIVATE KEY-----'] }).join('\n');
    assert.match(all, /clientSecret: expected a non-empty string, got number 12345/);
    assert.match(all, /privateKey: expected a non-empty string, got an array/);
    const s = messages({ clientId: 'x', clientSecret: '', signingAlgorithm: 'none' }).join('\n');
    assert.match(s, /clientSecret: expected a non-empty string, got a string/);
  });

  it('the client metadata URL must be https with a path (variables allowed)', () => {
    assert.match(messages({ clientMetadataUrl: 'http://acme.example/c.json' })[0], /^clientMetadataUrl: expected an https:\/\/ URL with a path/);
    assert.match(messages({ clientMetadataUrl: 'https://acme.example/' })[0], /https:\/\/ URL with a path/);
    assert.deepEqual(messages({ clientMetadataUrl: '${env:CLIENT_DOC}' }), []);
  });

  it('combinations that cannot work', () => {
    assert.deepEqual(messages({ grant: 'client_credentials' }), [
      'clientId: missing: "grant": "client_credentials" needs a clientId',
      'clientSecret: missing: "grant": "client_credentials" needs a clientSecret or a privateKey',
    ]);
    assert.deepEqual(messages({ grant: 'client_credentials', clientId: 'c', clientSecret: 's', privateKey: 'k' }), [
      'privateKey: give either a clientSecret or a privateKey, not both',
    ]);
    assert.deepEqual(messages({ clientSecret: 's' }), ['clientId: missing: a clientSecret needs the clientId it belongs to']);
    assert.deepEqual(messages({ privateKey: 'k', clientId: 'c' }), ['privateKey: is used only by "grant": "client_credentials" (private_key_jwt)']);
    assert.deepEqual(messages({ grant: 'client_credentials', clientId: 'c', clientSecret: 's', signingAlgorithm: 'ES256' }), [
      'signingAlgorithm: is used only with a privateKey',
    ]);
    assert.deepEqual(messages({ grant: 'client_credentials', clientId: 'c', clientSecret: 's', clientMetadataUrl: 'https://a.example/c.json' }), [
      'clientMetadataUrl: is used only by "grant": "authorization_code"; remove it or change the grant',
    ]);
    assert.equal(parseOAuthSettings({ grant: 'client_credentials' }).settings, undefined);
  });
});
