import * as assert from 'node:assert/strict';
import type { RemoteServerSettings, SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { manifestConfiguration } from '../../../../src/core/settings/manifestConfiguration';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { resolveServerSettings } from '../../../../src/core/settings/resolveServerSettings';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

const SECRET = 'cs-9f3a1c77e2b4d0aa-never-shown';

function parse(def: unknown): { server?: RemoteServerSettings; problems: SettingsProblem[] } {
  const { settings, problems } = parseSettings({ servers: { tracker: def } });
  return { server: settings.servers[0] as RemoteServerSettings | undefined, problems };
}

describe('settings: a remote server\'s "oauth" object', () => {
  it('is parsed into the server settings (grant defaulted), secrets kept as references', () => {
    const { server, problems } = parse({
      type: 'http',
      url: 'https://tracker.example.com/mcp',
      oauth: { clientId: 'mcp-host-acme', clientSecret: '${secret:TRACKER_CLIENT_SECRET}', scopes: ['issues:read'] },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(server?.oauth, {
      grant: 'authorization_code',
      clientId: 'mcp-host-acme',
      clientSecret: '${secret:TRACKER_CLIENT_SECRET}',
      scopes: ['issues:read'],
    });
    assert.equal(parse({ type: 'sse', url: 'https://x.example/sse' }).server?.oauth, undefined, 'absent stays absent');
  });

  it('reports problems at exact paths below mcpHost.servers.NAME.oauth and does not load the server', () => {
    const { server, problems } = parse({
      type: 'http',
      url: 'https://tracker.example.com/mcp',
      oauth: { scopes: ['ok', 'b c'], grant: 'client_credentials', clientSecret: SECRET, extra: 1 },
    });
    assert.equal(server, undefined);
    const lines = problems.map(formatProblem);
    assert.ok(lines.some((l) => l.startsWith('mcpHost.servers.tracker.oauth.scopes[1]:') && l.includes('got string "b c"')), lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('mcpHost.servers.tracker.oauth.extra:') && l.includes('unknown key "extra"')), lines.join('\n'));
    assert.ok(lines.every((l) => l.includes('server "tracker" is not loaded')), lines.join('\n'));
    assert.ok(!lines.join('\n').includes(SECRET), 'a client secret is never echoed');
  });

  it('cross-field rules name the field: client_credentials needs a clientId and a secret or key', () => {
    const { problems } = parse({ type: 'http', url: 'https://t.example/mcp', oauth: { grant: 'client_credentials' } });
    const byPath = new Map(problems.map((p) => [p.setting, p.message]));
    assert.match(byPath.get('mcpHost.servers.tracker.oauth.clientId') ?? '', /needs a clientId/);
    assert.match(byPath.get('mcpHost.servers.tracker.oauth.clientSecret') ?? '', /needs a clientSecret or a privateKey/);
  });

  it('a wrong value of a secret field is described without its content', () => {
    const { problems } = parse({ type: 'http', url: 'https://t.example/mcp', oauth: { clientId: 'c', clientSecret: ['x', SECRET] } });
    assert.equal(problems.length, 1);
    assert.equal(problems[0].setting, 'mcpHost.servers.tracker.oauth.clientSecret');
    assert.ok(!problems[0].message.includes(SECRET));
  });

  it('"oauth" on a stdio server is an unknown key', () => {
    const { problems } = parseSettings({ servers: { local: { command: 'node', oauth: {} } } });
    assert.equal(problems[0]?.setting, 'mcpHost.servers.local.oauth');
    assert.match(problems[0].message, /unknown key "oauth"/);
  });

  it('problems with the rest of the server and with oauth are all reported at once', () => {
    const { problems } = parse({ type: 'http', url: 'https://t.example/mcp', timeoutMs: -1, oauth: { grant: 'password' } });
    assert.deepEqual(problems.map((p) => p.setting).sort(), ['mcpHost.servers.tracker.oauth.grant', 'mcpHost.servers.tracker.timeoutMs']);
  });

  it('resolving substitutes variables in oauth and redacts the secret everywhere, even a literal one', async () => {
    const { server } = parse({
      type: 'http',
      url: 'https://t.example/mcp',
      oauth: { grant: 'client_credentials', clientId: '${env:CLIENT}', clientSecret: '${secret:CS}' },
    });
    const r = await resolveServerSettings(server!, { env: { CLIENT: 'ci-bot' }, secrets: { get: async (n) => (n === 'CS' ? SECRET : undefined) } });
    assert.ok(r.ok);
    assert.deepEqual((r.server as RemoteServerSettings).oauth, { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: SECRET });
    assert.deepEqual(r.secretValues, [SECRET]);

    const literal = parse({ type: 'http', url: 'https://t.example/mcp', oauth: { clientId: 'c', clientSecret: SECRET } }).server!;
    const lr = await resolveServerSettings(literal, { env: {}, secrets: { get: async () => undefined } });
    assert.ok(lr.ok && lr.secretValues.includes(SECRET));
  });

  it('a missing secret fails the server naming the oauth setting, without a value', async () => {
    const { server } = parse({ type: 'http', url: 'https://t.example/mcp', oauth: { clientId: 'c', clientSecret: '${secret:NOPE}' } });
    const r = await resolveServerSettings(server!, { env: {}, secrets: { get: async () => undefined } });
    assert.ok(!r.ok);
    assert.equal(r.setting, 'mcpHost.servers.tracker.oauth.clientSecret');
    assert.match(r.error, /secret "NOPE" is not set/);
  });

  it('the editor schema describes oauth and its fields', () => {
    const servers = manifestConfiguration().properties['mcpHost.servers'] as { additionalProperties?: { oneOf?: { properties?: Record<string, { properties?: Record<string, unknown> }> }[] } };
    const remote = servers.additionalProperties?.oneOf?.find((s) => s.properties?.url);
    const oauth = remote?.properties?.oauth;
    assert.ok(oauth, JSON.stringify(servers).slice(0, 500));
    assert.deepEqual(Object.keys(oauth.properties ?? {}), ['clientId', 'clientSecret', 'clientMetadataUrl', 'scopes', 'grant', 'privateKey', 'signingAlgorithm']);
  });
});
