import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import { DEFAULTS } from '../../../../src/core/settings/hostSettings';
import { manifestConfiguration, restrictedSettings } from '../../../../src/core/settings/manifestConfiguration';
import { parseSettings } from '../../../../src/core/settings/parseSettings';
import { KNOWN_SETTING_KEYS } from '../../../../src/core/settings/settingsSchema';

// Whether package.json holds exactly this is checked in test/unit/vscode/manifest.test.ts.
const { properties } = manifestConfiguration();

function validator(key: string) {
  // VS Code's own keywords (markdownDescription, enumDescriptions, patternErrorMessage, …) are not JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(properties[key]);
}

describe('manifestConfiguration', () => {
  it('has one setting per known key, in the schema\'s order, each typed, described and with a default', () => {
    assert.deepEqual(Object.keys(properties), KNOWN_SETTING_KEYS.map((k) => `mcpHost.${k}`));
    Object.entries(properties).forEach(([key, schema], i) => {
      assert.equal(schema.order, i + 1, `${key} order`);
      assert.ok(schema.type, `${key} has a type`);
      assert.ok(schema.description || schema.markdownDescription, `${key} is described`);
      assert.ok('default' in schema, `${key} has a default`);
    });
  });

  it('inlines every schema and leaves out what is not for the editor', () => {
    // The editor merges all settings into one schema: a $ref or $defs of one setting would not resolve.
    const text = JSON.stringify(properties);
    for (const word of ['"$ref"', '"$defs"', '"definitions"', '"$schema"', '"restricted"']) assert.ok(!text.includes(word), word);
  });

  it('uses the core\'s defaults, and the defaults parse without problems', () => {
    assert.equal(properties['mcpHost.timeoutMs'].default, DEFAULTS.timeoutMs);
    assert.equal(properties['mcpHost.maxToolRounds'].default, DEFAULTS.maxToolRounds);
    assert.equal(properties['mcpHost.maxResultChars'].default, DEFAULTS.maxResultChars);
    assert.equal(properties['mcpHost.toolNames'].default, DEFAULTS.toolNames);
    const raw = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k.slice('mcpHost.'.length), s.default]));
    delete raw['audit.path']; // "" means unset; the reader leaves it out
    assert.deepEqual(parseSettings(raw).problems, []);
  });

  it('the servers schema accepts stdio and remote servers and rejects what parseSettings rejects', () => {
    const valid = validator('mcpHost.servers');
    const good = {
      orders: { command: 'node', args: ['${workspaceFolder}/s.js'], env: { A: '${secret:A}' }, cwd: 'srv', timeoutMs: 5000, enabled: true },
      typed: { type: 'stdio', command: 'npx' },
      kb: { type: 'http', url: 'https://kb.example.com/mcp', headers: { Authorization: 'Bearer ${secret:KB}' }, connectTimeoutMs: 3000 },
      legacy: { type: 'sse', url: '${env:SSE_URL}' },
    };
    assert.ok(valid(good), JSON.stringify(valid.errors));
    assert.deepEqual(parseSettings({ servers: good }).problems, []);
    const bad: Record<string, unknown>[] = [
      { x: { args: [] } }, // no command
      { x: { command: 'node', url: 'http://a' } }, // unknown key for stdio
      { x: { type: 'http', command: 'node' } }, // remote without url
      { x: { type: 'http', url: 'ftp://a' } },
      { x: { type: 'tcp', command: 'node' } },
      { x: { command: 'node', timeoutMs: 0 } },
      { x: { command: 'node', connectTimeoutMs: 1.5 } },
      { x: { command: 'node', env: { A: 1 } } },
      { x: { command: '' } },
      { 'a/b': { command: 'node' } },
    ];
    for (const servers of bad) {
      assert.equal(valid(servers), false, `schema rejects ${JSON.stringify(servers)}`);
      assert.ok(parseSettings({ servers }).problems.some((p) => p.severity === 'error'), `parseSettings rejects ${JSON.stringify(servers)}`);
    }
  });

  it('the roles and pattern schemas match the core\'s "server/tool" globs', () => {
    const roles = validator('mcpHost.roles');
    assert.ok(roles({ support: { description: 'd', servers: ['a'], tools: ['a/get_*', '*/search'], exclude: ['a/del*'], autoApprove: ['*/*'], confirm: ['a/x'] } }));
    assert.equal(roles({ support: { tools: ['no-slash'] } }), false);
    assert.equal(roles({ support: { tools: ['a/b/c'] } }), false);
    assert.equal(roles({ support: { unknown: true } }), false);
    const auto = validator('mcpHost.autoApprove');
    assert.ok(auto(['orders/get_*']));
    assert.equal(auto(['orders']), false);
    assert.equal(validator('mcpHost.toolNames')('other'), false);
    assert.equal(validator('mcpHost.timeoutMs')(0), false);
    assert.equal(validator('mcpHost.maxToolRounds')(1.5), false);
  });

  it('marks the settings that can start processes, reveal data or widen what runs without asking as restricted', () => {
    // Order does not matter; membership does (these are the settings a repository must not set for an untrusted user:
    // they start processes, widen what runs without asking, reveal data or send it elsewhere).
    assert.deepEqual([...restrictedSettings()].sort(), [
      'mcpHost.audit.path',
      'mcpHost.autoApprove',
      'mcpHost.confirm',
      'mcpHost.elicitation',
      'mcpHost.import',
      'mcpHost.pinning',
      'mcpHost.roles',
      'mcpHost.rules',
      'mcpHost.sampling',
      'mcpHost.servers',
      'mcpHost.telemetry.captureContent',
      'mcpHost.telemetry.headers',
      'mcpHost.telemetry.otlpEndpoint',
    ]);
  });
});
