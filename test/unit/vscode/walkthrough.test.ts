import './fakeVscode';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILESYSTEM_SERVER, HAS_SERVERS_CONTEXT, READ_ONLY_ROLE, SETUP_COMMANDS, WALKTHROUGH_ID } from '../../../src/vscode/setupCommands';
import { parseSettings } from '../../../src/core/settings/parseSettings';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `command:ID` links of a markdown text. */
const commandLinks = (text: string) => [...text.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);

describe('first-run walkthrough and the empty view', () => {
  const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));

  it('declares the walkthrough the extension opens, with five steps whose buttons are declared commands and whose media exist', () => {
    const [w] = pkg.contributes.walkthroughs;
    assert.equal(w.id, WALKTHROUGH_ID);
    assert.deepEqual(w.steps.map((s: { id: string }) => s.id), ['addServer', 'reviewTools', 'pickRole', 'tryChat', 'seeAudit']);
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
    assert.deepEqual(settings.servers.map((s) => (s.type === 'stdio' ? [s.command, ...s.args] : [])), [['npx', '-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}']]);
    assert.deepEqual(settings.roles[0].autoApprove, READ_ONLY_ROLE.tools);
  });

  it('the filesystem server it adds gets as roots exactly the folder it exposes, not more', () => {
    const { settings } = parseSettings({ servers: { filesystem: FILESYSTEM_SERVER } });
    const [server] = settings.servers;
    assert.ok(server.type === 'stdio');
    assert.deepEqual(server.roots, [server.args.at(-1)]);
  });
});
