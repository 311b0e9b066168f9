import { fake } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ConnectionState } from '../../../src/core/host/hostSnapshot';
import type { RemoteServerSettings } from '../../../src/core/settings/hostSettings';
import { ExternalOpener } from '../../../src/vscode/externalOpener';
import { OAUTH_CREDENTIALS_KEY, SecretCredentialStore } from '../../../src/vscode/secretCredentialStore';
import { serverContextValue, serverDescription, serverTooltip } from '../../../src/vscode/serverTreeItem';
import { serversMarkdown } from '../../../src/vscode/slashCommands';
import { statusBarView } from '../../../src/vscode/statusBar';
import { toTreeItem } from '../../../src/vscode/treeItems';
import type { ServerNode } from '../../../src/vscode/treeNodes';
import { serverView } from './serverViews';

const ISSUER = 'https://auth.example.com';
const needsSignIn: ConnectionState = { kind: 'needsSignIn', issuer: ISSUER, message: 'https://t.example/mcp needs you to sign in' };
const remote: RemoteServerSettings = { name: 'tracker', type: 'http', enabled: true, connectTimeoutMs: 15000, url: 'https://t.example/mcp', headers: {} };

function node(state: ConnectionState, settings: ServerNode['settings'] = remote): ServerNode {
  return { kind: 'server', role: undefined, ...serverView('tracker', state, { settings }) };
}

function fakeSecrets() {
  const values = new Map<string, string>();
  return {
    values,
    get: async (k: string) => values.get(k),
    store: async (k: string, v: string) => void values.set(k, v),
    delete: async (k: string) => void values.delete(k),
  };
}

describe('editor: a server that needs sign-in', () => {
  it('the tree shows the state with the issuer and offers Sign In (inline) and Sign Out for remote servers', () => {
    const n = node(needsSignIn);
    assert.equal(serverDescription(n), 'needs sign-in');
    const item = toTreeItem(n) as InstanceType<typeof fake.TreeItem>;
    assert.equal(item.iconPath?.id, 'account');
    assert.equal(serverContextValue(n), 'mcpServer mcpServer.stopped mcpServer.needsSignIn mcpServer.remote');
    assert.match(serverTooltip(n), /Needs sign-in with https:\/\/auth\.example\.com.*\*\*Sign In\*\*/);
    const connected = node({ kind: 'connected', info: { capabilities: {} } });
    assert.equal(serverContextValue(connected), 'mcpServer mcpServer.running mcpServer.connected mcpServer.remote', 'Sign Out stays available');
    const stdio = node(ConnectionState_idle(), { name: 'x', type: 'stdio', enabled: true, connectTimeoutMs: 1, command: 'node', args: [], env: {} });
    assert.doesNotMatch(serverContextValue(stdio), /remote|needsSignIn/);
  });

  it('the status bar warns and /servers says what to do', () => {
    const view = statusBarView({ role: undefined, trusted: true, servers: [serverView('tracker', needsSignIn)] });
    assert.equal(view.warning, true);
    assert.ok(view.tooltip.includes(`tracker: not signed in (sign in with ${ISSUER})`));
    const md = serversMarkdown(undefined, [serverView('tracker', needsSignIn)], true);
    assert.ok(md.includes('- `tracker`: not signed in \\(sign in with https://auth.example.com\\) — use **Sign In**'), md);
  });

  it('SecretCredentialStore keeps the credentials document in SecretStorage under one key', async () => {
    const secrets = fakeSecrets();
    const warnings: string[] = [];
    const logger = { trace() {}, debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const store = new SecretCredentialStore(secrets as unknown as vscode.SecretStorage, logger);
    const key = { serverUrl: 'https://t.example/mcp', issuer: ISSUER };
    await store.set(key, 'tokens', { tokens: { access_token: 'at-123', token_type: 'Bearer' }, obtainedAt: 1 });
    assert.deepEqual([...secrets.values.keys()], [OAUTH_CREDENTIALS_KEY]);
    assert.equal((await new SecretCredentialStore(secrets as unknown as vscode.SecretStorage, logger).get(key, 'tokens'))?.tokens.access_token, 'at-123');
    assert.deepEqual(await store.issuers('https://t.example/mcp'), [ISSUER], 'keyed by server URL and issuer (normalized, no trailing slash)');
    assert.equal(await store.forget('https://t.example/mcp'), true);
    assert.equal(await store.get(key, 'tokens'), undefined);

    secrets.values.set(OAUTH_CREDENTIALS_KEY, '{"not json with at-secret');
    assert.equal(await store.get(key, 'tokens'), undefined, 'an unreadable document reads as empty');
    assert.equal(warnings.length, 1);
    assert.ok(!warnings[0].includes('at-secret'), 'never the content');
  });

  it('ExternalOpener opens https and loopback http with openExternal, nothing else', async () => {
    const opened: string[] = [];
    fake.env.openExternal = async (uri) => (opened.push(uri.toString()), true);
    const opener = new ExternalOpener();
    await opener.openUrl(new URL('https://auth.example.com/authorize?x=1'));
    await opener.openUrl(new URL('http://127.0.0.1:4000/authorize'));
    await assert.rejects(opener.openUrl(new URL('http://evil.example/authorize')), /not opened: it is plain http/);
    await assert.rejects(opener.openUrl(new URL('javascript:alert(1)')), /not opened/);
    assert.deepEqual(opened, ['https://auth.example.com/authorize?x=1', 'http://127.0.0.1:4000/authorize']);
    // What the editor opens for a Uri is encodeURI(uri.toString(true)): a value that would change is refused.
    await opener.openUrl(new URL('https://auth.example.com/authorize?redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcallback&scope=a+b'));
    await assert.rejects(opener.openUrl(new URL('https://auth.example.com/authorize?state=a%26b')), /cannot be passed to the browser unchanged/);
    assert.equal(opened.length, 3);
    fake.env.openExternal = async () => false;
    await assert.rejects(opener.openUrl(new URL('https://auth.example.com/a')), /did not open/);

    const viaTest: string[] = [];
    await opener.with(async (uri) => (viaTest.push(uri.toString()), true), () => opener.openUrl(new URL('https://auth.example.com/b')));
    assert.deepEqual(viaTest, ['https://auth.example.com/b']);
    fake.env.openExternal = async () => true;
  });
});

function ConnectionState_idle(): ConnectionState {
  return { kind: 'idle' };
}
