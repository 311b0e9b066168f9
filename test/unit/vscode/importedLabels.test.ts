import './fakeVscode';
import type { fake } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type { ConnectionState } from '../../../src/core/mcp/connectionState';
import { serverTooltip } from '../../../src/vscode/serverTreeItem';
import { serversMarkdown } from '../../../src/vscode/slashCommands';
import { toTreeItem } from '../../../src/vscode/treeItems';
import type { ServerNode } from '../../../src/vscode/treeNodes';
import { serverView } from './serverViews';

const connected: ConnectionState = { kind: 'connected', info: { protocolVersion: '2025-11-25', capabilities: {} } };

function node(source?: string): ServerNode {
  const view = serverView('db', connected, { toolCount: 2 });
  return { kind: 'server', role: undefined, ...view, settings: { ...view.settings, ...(source ? { source } : {}) } };
}

describe('imported servers in the tree and /servers', () => {
  it('the tree item names the file after the state; the tooltip says it is imported', () => {
    const item = toTreeItem(node('.mcp.json')) as InstanceType<typeof fake.TreeItem>;
    assert.equal(item.description, 'connected · 2 tools · .mcp.json');
    assert.match(serverTooltip(node('.mcp.json')), /Imported from `\.mcp\.json` \(`mcpHost\.import`\)/);
    const own = toTreeItem(node()) as InstanceType<typeof fake.TreeItem>;
    assert.equal(own.description, 'connected · 2 tools');
    assert.doesNotMatch(serverTooltip(node()), /Imported from/);
  });

  it('/servers names the file an imported server comes from', () => {
    const text = serversMarkdown(undefined, [node('.vscode/mcp.json'), { ...node(), name: 'own' }], true);
    assert.match(text, /- `db` \(from `\.vscode\/mcp\.json`\): connected/);
    assert.match(text, /- `own`: connected/);
  });
});
