import './fakeVscode';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configuredFilesystemServer, FILESYSTEM_PACKAGE, FILESYSTEM_PACKAGE_VERSION, FILESYSTEM_SERVER, freeServerName } from '../../../src/vscode/filesystemServer';
import { HAS_SERVERS_CONTEXT, READ_ONLY_ROLE, SETUP_COMMANDS, WALKTHROUGH_ID } from '../../../src/vscode/setupCommands';
import { parseSettings } from '../../../src/core/settings/parseSettings';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `command:ID` links of a markdown text. */
const commandLinks = (text: string) => [...text.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);

describe('first-run walkthrough and the empty view', () => {
  const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));

  it('declares the walkthrough the extension opens, with six steps whose buttons are declared commands and whose media exist', () => {
    const [w] = pkg.contributes.walkthroughs;
    assert.equal(w.id, WALKTHROUGH_ID);
    assert.deepEqual(w.steps.map((s: { id: string }) => s.id), ['addServer', 'reviewTools', 'pickRole', 'tryChat', 'useFromEditorAgent', 'seeAudit']);
    for (const step of w.steps) {
      const links = commandLinks(step.description);
      assert.ok(links.length > 0, `step ${step.id} has a button`);
      for (const id of links) assert.ok(declared.has(id), `${id} is declared`);
      assert.ok(existsSync(join(root, step.media.markdown)), step.media.markdown);
      for (const event of step.completionEvents) {
        const [kind, arg] = event.split(':');
        if (kind === 'onCommand') assert.ok(declared.has(arg), `${arg} is declared`);
        else assert.deepEqual([kind, arg], ['onContext', HAS_SERVERS_CONTEXT]);
      }
    }
    assert.deepEqual(commandLinks(w.steps[0].description), [SETUP_COMMANDS.addFilesystemServer]);
  });

  it('the empty Servers view offers the walkthrough\'s first action', () => {
    const empty = pkg.contributes.viewsWelcome.find((v: { when: string }) => v.when === '!mcpHost.serverSettingsInvalid');
    assert.deepEqual(commandLinks(empty.contents), [SETUP_COMMANDS.addFilesystemServer, 'mcpHost.openSettings', SETUP_COMMANDS.openWalkthrough]);
  });

  it('what the buttons write is valid MCP Host settings: the filesystem server for the workspace, a read-only role', () => {
    const { settings, problems } = parseSettings({ servers: { filesystem: FILESYSTEM_SERVER }, roles: { reader: READ_ONLY_ROLE } });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings.servers.map((s) => (s.type === 'stdio' ? [s.command, ...s.args] : [])), [['npx', '-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '${workspaceFolder}']]);
    assert.deepEqual(settings.roles[0].autoApprove, READ_ONLY_ROLE.tools);
  });

  it('the walkthrough page shows exactly the server the button adds', () => {
    const page = readFileSync(join(root, 'media', 'walkthrough', 'add-server.md'), 'utf8');
    const block = /```json\n"mcpHost\.servers": (\{[\s\S]*?\n\})\n```/.exec(page);
    assert.ok(block, 'the page has the settings block');
    assert.deepEqual(JSON.parse(block[1]), { filesystem: FILESYSTEM_SERVER });
  });

  it('the filesystem server it adds gets as roots exactly the folder it exposes, not more', () => {
    const { settings } = parseSettings({ servers: { filesystem: FILESYSTEM_SERVER } });
    const [server] = settings.servers;
    assert.ok(server.type === 'stdio');
    assert.deepEqual(server.roots, [server.args.at(-1)]);
  });

  it('the filesystem server it adds is pinned to the version the repository installs and tests (package.json, node_modules)', () => {
    assert.match(FILESYSTEM_PACKAGE_VERSION, /^\d+\.\d+\.\d+$/, 'an exact version, never a range or "latest"');
    assert.equal(pkg.devDependencies[FILESYSTEM_PACKAGE], FILESYSTEM_PACKAGE_VERSION, 'package.json devDependencies');
    const installed = JSON.parse(readFileSync(join(root, 'node_modules', FILESYSTEM_PACKAGE, 'package.json'), 'utf8'));
    assert.equal(installed.version, FILESYSTEM_PACKAGE_VERSION, 'node_modules');
  });

  it('finds a filesystem server already configured, whatever its name and however it is run; none among other servers', () => {
    const stdio = (name: string, command: string, ...args: string[]) => parseSettings({ servers: { [name]: { command, args } } }).settings.servers[0];
    const remote = parseSettings({ servers: { fsremote: { type: 'http', url: 'https://example.com/server-filesystem' } } }).settings.servers[0];
    const found = [
      stdio('files', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/data'),
      stdio('fs', 'npx', '-y', '@modelcontextprotocol/server-filesystem@2025.1.1', '.'),
      stdio('local', 'node', '/repo/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/data'),
      stdio('bin', '/usr/local/bin/mcp-server-filesystem', '/data'),
      stdio('docker', 'docker', 'run', '-i', '--rm', 'mcp/filesystem', '/projects'),
    ];
    for (const s of found) assert.equal(configuredFilesystemServer([s]), s.name, JSON.stringify(s));
    const others = [
      remote,
      stdio('memory', 'npx', '-y', '@modelcontextprotocol/server-memory'),
      stdio('mine', 'npx', '-y', '@acme/server-filesystem-extra'),
      stdio('docs', 'node', 'server.js', '--root', 'my-server-filesystem-notes'),
    ];
    assert.equal(configuredFilesystemServer(others), undefined);
  });

  it('picks a free name when "filesystem" is taken by another server', () => {
    assert.equal(freeServerName([]), 'filesystem');
    assert.equal(freeServerName(['filesystem', 'filesystem-2']), 'filesystem-3');
  });
});
