import './fakeVscode';
import * as assert from 'node:assert/strict';
import type { ToolCallResult } from '../../../src/core/calls/toolRouter';
import type { RoleSettings, ServerSettings } from '../../../src/core/settings/hostSettings';
import { argumentTemplate, validateArgumentsJson } from '../../../src/vscode/argumentTemplate';
import { callResultDocument } from '../../../src/vscode/callResultDocument';
import { settingsCommand } from '../../../src/vscode/commands';
import { NO_ROLE_LABEL, rolePickItems } from '../../../src/vscode/rolePicker';
import { secretNamesIn, secretNamesInText } from '../../../src/vscode/secretReferences';
import { statusBarView } from '../../../src/vscode/statusBar';
import type { ServerView } from '../../../src/core/host/hostSnapshot';
import { serverView } from './serverViews';

describe('Call Tool… arguments', () => {
  it('prefills one placeholder per schema property', () => {
    const schema = {
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1 },
        exact: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { type: 'string', enum: ['fast', 'full'] },
        page: { type: 'number', default: 2 },
        filter: { type: 'object', properties: { from: { type: 'string', examples: ['2026-01-01'] } } },
        maybe: { anyOf: [{ type: 'null' }, { type: 'number' }] },
        nullable: { type: ['null', 'string'] },
      },
    };
    assert.deepEqual(JSON.parse(argumentTemplate(schema)), {
      query: '',
      limit: 1,
      exact: false,
      tags: [],
      mode: 'fast',
      page: 2,
      filter: { from: '2026-01-01' },
      maybe: 0,
      nullable: '',
    });
    assert.equal(argumentTemplate(undefined), '{}');
    assert.equal(argumentTemplate({ type: 'object' }), '{}');
  });

  it('accepts only a JSON object (or nothing)', () => {
    assert.equal(validateArgumentsJson(''), undefined);
    assert.equal(validateArgumentsJson('{"a":1}'), undefined);
    assert.match(validateArgumentsJson('{a:1}') ?? '', /^Not valid JSON/);
    assert.match(validateArgumentsJson('[1]') ?? '', /must be a JSON object/);
    assert.match(validateArgumentsJson('null') ?? '', /must be a JSON object/);
  });

  it('shows the call result as JSON with long binary data shortened', () => {
    const result: ToolCallResult = {
      name: 'e__get-tiny-image',
      server: 'e',
      tool: 'get-tiny-image',
      outcome: 'ok',
      isError: false,
      confirmedBy: 'user',
      durationMs: 12.5,
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', data: 'A'.repeat(1000), mimeType: 'image/png' },
      ],
      parts: [],
      modelText: 'here\n[image image/png, 750 B]',
    };
    const doc = JSON.parse(callResultDocument(result));
    assert.equal(doc.outcome, 'ok');
    assert.equal(doc.confirmedBy, 'user');
    assert.equal(doc.content[1].data, '<1000 characters of base64>');
    assert.equal(doc.content[0].text, 'here');
    assert.equal('structuredContent' in doc, false);
    const denied = JSON.parse(callResultDocument({ ...result, outcome: 'denied', isError: true, confirmedBy: null, content: [], modelText: 'The user denied…' }));
    assert.equal(denied.modelText, 'The user denied…');
  });
});

describe('roles in the status bar and the role picker', () => {
  const roles: RoleSettings[] = [
    { name: 'support', description: 'Read only', servers: ['orders'], tools: ['*/*'], exclude: [], autoApprove: [], confirm: [] },
    { name: 'all', tools: ['*/*'], exclude: [], autoApprove: [], confirm: [] },
  ];

  it('status bar: role name, warning look when a server of the role failed', () => {
    const view = (role: string | undefined, servers: ServerView[], trusted = true) => statusBarView({ role, servers, trusted });
    const ok = view('support', [serverView('orders', { kind: 'connected', info: { capabilities: {} } })]);
    assert.equal(ok.text, '$(tools) MCP: support');
    assert.equal(ok.warning, false);
    const failing = view('support', [
      serverView('orders', { kind: 'error', message: 'x' }),
      serverView('other', { kind: 'error', message: 'y' }, { usedByRole: false }),
    ]);
    assert.equal(failing.warning, true);
    assert.ok(failing.tooltip.includes('orders: error: x'));
    assert.ok(!failing.tooltip.includes('other'));
    assert.equal(view(undefined, [serverView('other', { kind: 'error', message: 'y' }, { usedByRole: false })]).warning, false);
    assert.equal(view(undefined, []).text, '$(tools) MCP: no role');
    assert.ok(view(undefined, [], false).tooltip.includes('not trusted'));
  });

  it('picker: "(no role)" first, descriptions, the active role marked', () => {
    const items = rolePickItems(roles, 'support');
    assert.deepEqual(items.map((i) => i.role), [undefined, 'support', 'all']);
    assert.equal(items[0].label, NO_ROLE_LABEL);
    assert.equal(items[1].label, 'support $(check)');
    assert.equal(items[1].description, 'Read only');
    assert.equal(items[1].detail, 'servers: orders');
    assert.equal(items[2].detail, 'servers: all enabled');
    assert.equal(rolePickItems(roles, undefined)[0].label, `${NO_ROLE_LABEL} $(check)`);
  });

  it('the person\'s own role (not the team\'s default): the tooltip says so, the picker offers the default first', () => {
    const own = statusBarView({ role: 'all', servers: [], trusted: true }, { teamDefault: 'support', personal: true });
    assert.equal(own.text, '$(tools) MCP: all');
    assert.match(own.tooltip, /Your choice in this workspace; the team's default \(mcpHost\.activeRole\) is support/);
    assert.doesNotMatch(statusBarView({ role: 'support', servers: [], trusted: true }, { teamDefault: 'support', personal: false }).tooltip, /team's default/);
    const items = rolePickItems(roles, 'all', { teamDefault: 'support', personal: true });
    assert.deepEqual(items.map((i) => [i.role, i.teamDefault]), [['support', true], [undefined, undefined], ['support', undefined], ['all', undefined]]);
    assert.match(items[0].label, /Use the team's default: support/);
    assert.match(rolePickItems(roles, undefined, { teamDefault: undefined, personal: true })[0].label, /Use the team's default: \(no role\)/);
    assert.equal(rolePickItems(roles, 'support', { teamDefault: 'support', personal: false })[0].role, undefined, 'no such item without a choice');
  });
});

describe('secret references', () => {
  it('finds ${secret:NAME} in every string a server uses', () => {
    assert.deepEqual(secretNamesInText('Bearer ${secret:a} ${ secret: b } ${env:c} ${secret:a}'), ['a', 'b', 'a']);
    const stdio: ServerSettings = {
      name: 's',
      type: 'stdio',
      enabled: true,
      connectTimeoutMs: 1,
      command: '${secret:cmd}',
      args: ['--t=${secret:tok}'],
      env: { K: '${secret:tok}' },
      cwd: '${secret:dir}',
    };
    assert.deepEqual(secretNamesIn(stdio), ['cmd', 'tok', 'dir']);
    const http: ServerSettings = { name: 'h', type: 'http', enabled: true, connectTimeoutMs: 1, url: 'https://x/${secret:u}', headers: { A: '${secret:h}' } };
    assert.deepEqual(secretNamesIn(http), ['u', 'h']);
  });
});

describe('Open Settings', () => {
  it('opens the Workspace scope, where MCP Host\'s values live, when a folder is open; the User scope otherwise', () => {
    assert.deepEqual(settingsCommand('pub.mcp-host', true), ['workbench.action.openWorkspaceSettings', '@ext:pub.mcp-host']);
    assert.deepEqual(settingsCommand('pub.mcp-host', false), ['workbench.action.openSettings', '@ext:pub.mcp-host']);
  });
});
