import './fakeVscode';
import * as assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { DEFAULTS } from '../../../src/core/settings/hostSettings';
import { parseSettings } from '../../../src/core/settings/parseSettings';
import { KNOWN_SETTING_KEYS } from '../../../src/core/settings/settingsSchema';
import { PARTICIPANT_ID } from '../../../src/vscode/chatParticipant';
import { COMMANDS } from '../../../src/vscode/commands';
import { SLASH_COMMANDS } from '../../../src/vscode/slashCommands';
import { SERVERS_VIEW_ID } from '../../../src/vscode/serverTreeProvider';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const properties: Record<string, Record<string, unknown>> = pkg.contributes.configuration.properties;

function validator(key: string) {
  // VS Code's own keywords (markdownDescription, enumDescriptions, patternErrorMessage, …) are not JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(properties[key]);
}

describe('package.json manifest', () => {
  it('contributes exactly the settings the core knows, with the core\'s defaults', () => {
    assert.deepEqual(Object.keys(properties).sort(), KNOWN_SETTING_KEYS.map((k) => `mcpHost.${k}`).sort());
    assert.equal(properties['mcpHost.timeoutMs'].default, DEFAULTS.timeoutMs);
    assert.equal(properties['mcpHost.maxToolRounds'].default, DEFAULTS.maxToolRounds);
    assert.equal(properties['mcpHost.maxResultChars'].default, DEFAULTS.maxResultChars);
    assert.equal(properties['mcpHost.toolNames'].default, DEFAULTS.toolNames);
    for (const [key, schema] of Object.entries(properties)) {
      assert.ok(schema.type, `${key} has a type`);
      assert.ok(schema.description || schema.markdownDescription, `${key} is described`);
      assert.ok('default' in schema, `${key} has a default`);
    }
  });

  it('the manifest defaults parse without problems', () => {
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
      { x: { command: 'node', env: { A: 1 } } },
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

  it('declares every command under the "MCP Host" category and hides tree-only commands from the palette', () => {
    const declared = new Map<string, { category?: string; title: string }>(pkg.contributes.commands.map((c: { command: string }) => [c.command, c]));
    assert.deepEqual([...declared.keys()].sort(), Object.values(COMMANDS).sort());
    for (const c of declared.values()) assert.equal(c.category, 'MCP Host');
    const hidden = new Set(pkg.contributes.menus.commandPalette.filter((m: { when: string }) => m.when === 'false').map((m: { command: string }) => m.command));
    for (const id of [COMMANDS.restartServer, COMMANDS.stopServer, COMMANDS.startServer, COMMANDS.refreshTools, COMMANDS.callTool, COMMANDS.showToolDefinition, COMMANDS.copyToolName]) {
      assert.ok(hidden.has(id), `${id} is hidden from the palette`);
    }
    for (const id of [COMMANDS.selectRole, COMMANDS.openAuditLog, COMMANDS.setSecret, COMMANDS.deleteSecret, COMMANDS.showOutput]) assert.ok(!hidden.has(id));
  });

  it('declares the view, its container, menus and welcome content', () => {
    assert.deepEqual(pkg.contributes.viewsContainers.activitybar, [{ id: 'mcpHost', title: 'MCP Host', icon: 'media/mcp-host.svg' }]);
    assert.equal(pkg.contributes.views.mcpHost[0].id, SERVERS_VIEW_ID);
    assert.equal(pkg.contributes.views.mcpHost[0].name, 'Servers');
    assert.ok(pkg.contributes.viewsWelcome.every((w: { view: string }) => w.view === SERVERS_VIEW_ID));
    const titles = pkg.contributes.menus['view/title'].map((m: { command: string }) => m.command);
    assert.deepEqual(titles.sort(), [COMMANDS.openAuditLog, COMMANDS.openSettings, COMMANDS.refreshAll, COMMANDS.selectRole, COMMANDS.showOutput].sort());
    for (const m of pkg.contributes.menus['view/item/context']) assert.match(m.when, /^view == mcpHost\.servers && viewItem =~ \//);
    for (const f of ['media/mcp-host.svg', 'media/icon.png']) assert.ok(existsSync(join(root, f)), f);
  });

  it('declares the @mcp participant with its slash commands, activation, trust and identity', () => {
    const [p] = pkg.contributes.chatParticipants;
    assert.equal(p.id, PARTICIPANT_ID);
    assert.equal(p.name, 'mcp');
    assert.equal(p.fullName, 'MCP Host');
    assert.deepEqual(p.commands.map((c: { name: string }) => c.name), [...SLASH_COMMANDS]);
    assert.deepEqual(pkg.activationEvents, ['onStartupFinished', `onChatParticipant:${PARTICIPANT_ID}`]);
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('mcpHost.servers'));
    assert.equal(pkg.displayName, 'MCP Host');
    assert.deepEqual(pkg.categories, ['AI', 'Chat', 'Other']);
    assert.equal(pkg.license, 'MIT');
    assert.equal(pkg.icon, 'media/icon.png');
    assert.equal(pkg.contributes.languageModelChatProviders, undefined);
    assert.match(pkg.engines.vscode, /^\^1\.1(0[4-9]|[1-3]\d)\.0$/);
  });

  it('icon.png is a 128×128 PNG', () => {
    const png = readFileSync(join(root, 'media', 'icon.png'));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    assert.equal(png.readUInt32BE(16), 128);
    assert.equal(png.readUInt32BE(20), 128);
  });
});
