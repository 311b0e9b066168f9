import type { HostSnapshot } from '../core/host/hostSnapshot';
import type { CatalogFolderNode, CatalogNode } from './treeNodes';

/** The Resources and Prompts folders of a connected server that declares them. */
export function catalogFolders(snapshot: HostSnapshot, server: string): CatalogFolderNode[] {
  const view = snapshot.server(server);
  const caps = view?.connected ? view.info?.capabilities : undefined;
  if (!caps) return [];
  const out: CatalogFolderNode[] = [];
  const role = snapshot.role;
  if (caps.resources) {
    const listed = [...snapshot.resources(server), ...snapshot.resourceTemplates(server)];
    out.push({ kind: 'catalog', server, section: 'resources', count: listed.length, visibleCount: listed.filter((r) => r.visible).length, role });
  }
  if (caps.prompts) {
    const listed = snapshot.prompts(server);
    out.push({ kind: 'catalog', server, section: 'prompts', count: listed.length, visibleCount: listed.filter((p) => p.visible).length, role });
  }
  return out;
}

/** A folder's children: resources then templates, or prompts, in the server's order. */
export function catalogChildren(snapshot: HostSnapshot, folder: CatalogFolderNode): CatalogNode[] {
  const role = snapshot.role;
  if (folder.section === 'prompts') return snapshot.prompts(folder.server).map((p) => ({ kind: 'prompt', role, ...p }));
  return [
    ...snapshot.resources(folder.server).map((r): CatalogNode => ({ kind: 'resource', role, ...r })),
    ...snapshot.resourceTemplates(folder.server).map((t): CatalogNode => ({ kind: 'resourceTemplate', role, ...t })),
  ];
}
