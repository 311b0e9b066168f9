import './fakeVscode';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestConfiguration, restrictedSettings } from '../../../src/core/settings/manifestConfiguration';
import { PARTICIPANT_ID } from '../../../src/vscode/chatParticipant';
import { COMMANDS } from '../../../src/vscode/commands';
import { SLASH_COMMANDS } from '../../../src/vscode/slashCommands';
import { NO_MODEL_VENDOR } from '../../../src/vscode/noModelProvider';
import { SERVERS_VIEW_ID } from '../../../src/vscode/serverTreeProvider';
import { GATEWAY_LABEL, GATEWAY_PROVIDER_ID } from '../../../src/vscode/gateway/editorGateway';
import { SETUP_COMMANDS } from '../../../src/vscode/setupCommands';
import { REVIEW_EXTENSION } from '../../../src/vscode/toolReview';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function runCheck(file: string) {
  return spawnSync(process.execPath, [join(root, 'scripts', 'generate-manifest-schema.js'), '--check', '--file', file], { encoding: 'utf8' });
}

describe('package.json manifest', () => {
  it('contributes exactly the settings schema generated from the zod schema (npm run manifest:write)', () => {
    // The whole object: every setting, key, type, default, enum, pattern, bound and description.
    assert.deepStrictEqual(pkg.contributes.configuration, manifestConfiguration());
    assert.deepStrictEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, restrictedSettings());
  });

  it('npm run manifest:check passes on package.json and names what is stale in a drifted copy', () => {
    const ok = runCheck(join(root, 'package.json'));
    assert.equal(ok.status, 0, ok.stderr);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-host-manifest-'));
    try {
      const drifted = JSON.parse(JSON.stringify(pkg));
      delete drifted.contributes.configuration.properties['mcpHost.servers'].additionalProperties.oneOf[0].properties.connectTimeoutMs;
      drifted.contributes.configuration.properties['mcpHost.timeoutMs'].default = 30000;
      const file = join(dir, 'package.json');
      writeFileSync(file, JSON.stringify(drifted, null, 2));
      const stale = runCheck(file);
      assert.equal(stale.status, 1);
      assert.match(stale.stderr, /mcpHost\.servers\.additionalProperties\.oneOf\.0\.properties\.connectTimeoutMs\n/);
      assert.match(stale.stderr, /mcpHost\.timeoutMs\.default\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('declares every command under the "MCP Host" category and hides tree-only commands from the palette', () => {
    const declared = new Map<string, { category?: string; title: string }>(pkg.contributes.commands.map((c: { command: string }) => [c.command, c]));
    assert.deepEqual([...declared.keys()].sort(), [...Object.values(COMMANDS), ...Object.values(SETUP_COMMANDS)].sort());
    for (const c of declared.values()) assert.equal(c.category, 'MCP Host');
    const hidden = new Set(pkg.contributes.menus.commandPalette.filter((m: { when: string }) => m.when === 'false').map((m: { command: string }) => m.command));
    for (const id of [COMMANDS.restartServer, COMMANDS.stopServer, COMMANDS.startServer, COMMANDS.refreshTools, COMMANDS.callTool, COMMANDS.showToolDefinition, COMMANDS.copyToolName]) {
      assert.ok(hidden.has(id), `${id} is hidden from the palette`);
    }
    for (const id of [COMMANDS.selectRole, COMMANDS.openAuditLog, COMMANDS.setSecret, COMMANDS.deleteSecret, COMMANDS.showOutput]) assert.ok(!hidden.has(id));
  });

  it('declares the MCP server definition provider the extension registers for the editor\'s agents', () => {
    assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id: GATEWAY_PROVIDER_ID, label: GATEWAY_LABEL }]);
  });

  it('declares the view, its container, menus and welcome content', () => {
    assert.deepEqual(pkg.contributes.viewsContainers.activitybar, [{ id: 'mcpHost', title: 'MCP Host', icon: 'media/mcp-host.svg' }]);
    assert.equal(pkg.contributes.views.mcpHost[0].id, SERVERS_VIEW_ID);
    assert.equal(pkg.contributes.views.mcpHost[0].name, 'Servers');
    assert.ok(pkg.contributes.viewsWelcome.every((w: { view: string }) => w.view === SERVERS_VIEW_ID));
    const titles = pkg.contributes.menus['view/title'].map((m: { command: string }) => m.command);
    assert.deepEqual(titles.sort(), [COMMANDS.openAuditLog, COMMANDS.showAuditLog, COMMANDS.openSettings, COMMANDS.refreshAll, COMMANDS.selectRole, COMMANDS.showOutput].sort());
    const review = pkg.contributes.menus['editor/title'].map((m: { command: string; when: string }) => [m.command, m.when]);
    assert.deepEqual(review, [
      [COMMANDS.approveToolChanges, 'resourceScheme == mcp-host-review'],
      [COMMANDS.rejectToolChanges, 'resourceScheme == mcp-host-review'],
    ]);
    for (const f of ['media/audit/auditView.js', 'media/audit/auditView.css']) assert.ok(existsSync(join(root, f)), f);
    // Without an icon the title bar shows a command's title: Approve and Reject read as words.
    const command = (id: string) => pkg.contributes.commands.find((c: { command: string }) => c.command === id);
    for (const id of [COMMANDS.approveToolChanges, COMMANDS.rejectToolChanges]) assert.equal(command(id).icon, undefined, id);
    // The review's documents wrap long lines under a language of their own (not every .jsonc file).
    assert.deepEqual(pkg.contributes.languages.find((l: { id: string }) => l.id === 'mcp-host-review').extensions, [REVIEW_EXTENSION]);
    assert.deepEqual(pkg.contributes.configurationDefaults['[mcp-host-review]'], { 'editor.wordWrap': 'on' });
    const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === 'mcp-host-review');
    assert.equal(JSON.parse(readFileSync(join(root, grammar.path), 'utf8')).scopeName, grammar.scopeName);
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
    // Only the stand-in that lets @mcp commands run while no chat model is installed; never the scripted test model.
    assert.deepEqual(pkg.contributes.languageModelChatProviders.map((p: { vendor: string }) => p.vendor), [NO_MODEL_VENDOR]);
    assert.match(pkg.engines.vscode, /^\^1\.1(0[4-9]|[1-3]\d)\.0$/);
  });

  it('icon.png is a 128×128 PNG', () => {
    const png = readFileSync(join(root, 'media', 'icon.png'));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    assert.equal(png.readUInt32BE(16), 128);
    assert.equal(png.readUInt32BE(20), 128);
  });
});
