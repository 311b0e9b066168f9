import { fake } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type { UpstreamClient } from '../../../src/core/gateway/gateway';
import type { GatewayStatus } from '../../../src/vscode/gateway/editorGateway';
import { gatewayClientNodes, gatewayItem } from '../../../src/vscode/gateway/gatewayTreeItems';
import { toTreeItem } from '../../../src/vscode/treeItems';

const editor: UpstreamClient = { id: 'http:Visual Studio Code', name: 'Visual Studio Code', version: '1.139.1', transport: 'http', since: '2026-12-05T17:20:03.000Z', calls: 2 };
const claude: UpstreamClient = { id: 'http:claude-code', name: 'claude-code', transport: 'http', since: '2026-12-05T17:21:00.000Z', calls: 1 };
const listening = (clients: UpstreamClient[]): GatewayStatus => ({ kind: 'listening', url: 'http://127.0.0.1:40123/mcp', clients });

describe('the gateway in the Servers view', () => {
  it('says how many clients are connected and lists each with its transport and calls', () => {
    const item = gatewayItem({ kind: 'gateway', status: listening([editor, claude]) });
    assert.equal(item.label, 'Gateway');
    assert.equal(item.description, '2 clients connected');
    assert.equal(item.collapsibleState, fake.TreeItemCollapsibleState.Expanded);
    assert.match(String(item.tooltip), /http:\/\/127\.0\.0\.1:40123\/mcp/);
    const nodes = gatewayClientNodes(listening([editor, claude]));
    assert.deepEqual(
      nodes.map((n) => [n.label, n.description?.replace(/since \S+/, 'since T')]),
      [
        ['Visual Studio Code 1.139.1', 'http · since T · 2 calls'],
        ['claude-code', 'http · since T · 1 call'],
      ],
    );
    assert.equal(new Set(nodes.map((n) => n.id)).size, 2, 'ids are distinct');
    assert.equal(toTreeItem(nodes[0]).label, 'Visual Studio Code 1.139.1');
  });

  it('without clients it is a leaf that says so', () => {
    const item = gatewayItem({ kind: 'gateway', status: listening([]) });
    assert.equal(item.description, 'no client connected');
    assert.equal(item.collapsibleState, fake.TreeItemCollapsibleState.None);
  });

  it('in an untrusted workspace it says that nothing is offered, and why; a failed start shows the error', () => {
    const untrusted = gatewayItem({ kind: 'gateway', status: { kind: 'untrusted' } });
    assert.equal(untrusted.description, 'not offered: the workspace is not trusted');
    assert.match(String(untrusted.tooltip), /starts no server/);
    assert.deepEqual(gatewayClientNodes({ kind: 'untrusted' }), []);
    const failed = gatewayItem({ kind: 'gateway', status: { kind: 'failed', message: 'listen EADDRINUSE 127.0.0.1:40123' } });
    assert.equal(failed.description, 'could not start');
    assert.match(String(failed.tooltip), /EADDRINUSE/);
  });
});
