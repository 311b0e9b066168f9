import './fakeVscode';
import * as assert from 'node:assert/strict';
import { parseSettings } from '../../../src/core/settings/parseSettings';
import { KNOWN_SETTING_KEYS } from '../../../src/core/settings/settingsSchema';
import { readRawSettings, withUntrustedWorkspaceValues, type ConfigurationLike } from '../../../src/vscode/settingsReader';

/** What `workspace.getConfiguration('mcpHost')` returns: the manifest defaults merged with the user's values. */
function config(values: Record<string, unknown>): ConfigurationLike & { asked: string[] } {
  const defaults: Record<string, unknown> = {
    servers: {},
    roles: {},
    activeRole: '',
    autoApprove: [],
    confirm: [],
    toolNames: 'prefix',
    timeoutMs: 20000,
    maxToolRounds: 10,
    maxResultChars: 50000,
    maxMessageBytes: 67108864,
    'audit.path': '',
    elicitation: { servers: ['*'] },
    sampling: { servers: [] },
    'audit.maxBytes': 10 * 1024 * 1024,
    pinning: 'review',
  };
  const merged = { ...defaults, ...values };
  const asked: string[] = [];
  return {
    asked,
    get<T>(key: string) {
      asked.push(key);
      return merged[key] as T | undefined;
    },
  };
}

describe('settings reader', () => {
  it('reads every mcpHost.* key into the raw record parseSettings takes (no prefix, audit.path dotted)', () => {
    const c = config({});
    const raw = readRawSettings(c);
    assert.deepEqual(c.asked, [...KNOWN_SETTING_KEYS], 'every known key, in the schema order');
    assert.deepEqual(raw, {
      servers: {},
      roles: {},
      activeRole: '',
      autoApprove: [],
      confirm: [],
      toolNames: 'prefix',
      timeoutMs: 20000,
      maxToolRounds: 10,
      maxResultChars: 50000,
      maxMessageBytes: 67108864,
      elicitation: { servers: ['*'] },
      sampling: { servers: [] },
      'audit.maxBytes': 10 * 1024 * 1024,
      pinning: 'review',
    });
    const { settings, problems } = parseSettings(raw);
    assert.deepEqual(problems, []);
    assert.equal(settings.activeRole, undefined);
    assert.equal(settings.auditPath, undefined);
  });

  it('passes configured values through, as plain copies', () => {
    const servers = Object.freeze({ orders: Object.freeze({ command: 'node', args: Object.freeze(['s.js']) }) });
    const raw = readRawSettings(
      config({
        servers,
        roles: { support: { servers: ['orders'], tools: ['orders/get_*'] } },
        activeRole: 'support',
        autoApprove: ['orders/get_*'],
        'audit.path': '.mcp/audit.jsonl',
        timeoutMs: 5000,
      }),
    );
    assert.deepEqual(raw.servers, { orders: { command: 'node', args: ['s.js'] } });
    assert.notEqual(raw.servers, servers);
    assert.equal(Object.isFrozen(raw.servers), false);
    assert.equal(raw['audit.path'], '.mcp/audit.jsonl');
    const { settings, problems } = parseSettings(raw);
    assert.deepEqual(problems, []);
    assert.equal(settings.activeRole, 'support');
    assert.equal(settings.auditPath, '.mcp/audit.jsonl');
    assert.equal(settings.timeoutMs, 5000);
    assert.deepEqual(settings.servers.map((s) => s.name), ['orders']);
  });

  it('leaves out unset values (undefined, null) so the core defaults apply', () => {
    const raw = readRawSettings({ get: <T>(key: string) => (key === 'timeoutMs' ? (null as T) : undefined) });
    assert.deepEqual(raw, {});
  });

  it('keeps invalid values for parseSettings to report with their setting path', () => {
    const { problems } = parseSettings(readRawSettings(config({ timeoutMs: -1, servers: { bad: { command: '' } } })));
    assert.ok(problems.some((p) => p.setting === 'mcpHost.timeoutMs'));
    assert.ok(problems.some((p) => p.setting === 'mcpHost.servers.bad.command'));
  });

  it('while untrusted, shows the workspace file\'s servers and roles (the editor hides them) but no other restricted setting', () => {
    const fromEditor = { servers: { user: { command: 'u' } }, roles: {}, activeRole: 'support', autoApprove: [] };
    const fromFile = { servers: { ws: { command: 'w' } }, roles: { support: {} }, autoApprove: ['*/*'], 'audit.path': '/etc/x' };
    const raw = withUntrustedWorkspaceValues(fromEditor, fromFile);
    assert.deepEqual(raw, { servers: { ws: { command: 'w' } }, roles: { support: {} }, activeRole: 'support', autoApprove: [] });
    assert.deepEqual(withUntrustedWorkspaceValues(fromEditor, {}), fromEditor);
  });
});
