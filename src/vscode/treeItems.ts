import type * as vscode from 'vscode';
import { catalogItem } from './catalogTreeItems';
import { detailItem, eventItem, eventsItem, eventToolItem } from './eventTreeItems';
import { gatewayItem } from './gateway/gatewayTreeItems';
import { serverItem } from './serverTreeItem';
import { toolItem } from './toolTreeItem';
import type { TreeNode } from './treeNodes';

export function toTreeItem(node: TreeNode): vscode.TreeItem {
  switch (node.kind) {
    case 'server':
      return serverItem(node);
    case 'tool':
      return toolItem(node);
    case 'events':
      return eventsItem(node);
    case 'event':
      return eventItem(node);
    case 'eventTool':
      return eventToolItem(node);
    case 'detail':
      return detailItem(node);
    case 'gateway':
      return gatewayItem(node);
    default:
      return catalogItem(node);
  }
}
