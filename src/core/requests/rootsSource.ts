import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';
import type { Event } from '../util/event';

/** The roots the host offers servers (the workspace folders) and when they change. */
export interface RootsSource {
  roots(): readonly Root[];
  readonly onDidChange?: Event<void>;
}

/** A folder as a root: its `file://` URI, named after the folder. */
export function folderRoot(folder: string, name?: string): Root {
  const absolute = path.resolve(folder);
  return { uri: pathToFileURL(absolute).href, name: name ?? (path.basename(absolute) || absolute) };
}

/** Fixed folders (the CLI's `--workspace`). */
export function folderRoots(folders: readonly string[]): RootsSource {
  const roots = folders.map((f) => folderRoot(f));
  return { roots: () => roots };
}

/**
 * The roots the host gives `server` (its resolved settings): its `roots` setting, else what
 * `source` offers (the workspace folders). undefined: roots are not declared to it at all
 * (`roots: false`, or a host that answers no server requests), so it keeps its own arguments.
 */
export function serverRoots(server: ServerSettings, source: RootsSource | undefined): readonly Root[] | undefined {
  if (server.roots === false || !source) return undefined;
  return server.roots ? server.roots.map((f) => folderRoot(f)) : source.roots();
}

/** The folders of `serverRoots` as paths (what a person is shown), or false when no roots are declared. */
export function serverRootFolders(server: ServerSettings, source: RootsSource | undefined): readonly string[] | false {
  const roots = serverRoots(server, source);
  return roots ? roots.map((r) => (r.uri.startsWith('file:') ? fileURLToPath(r.uri) : r.uri)) : false;
}

/** One line of a consent question: the folders the server will be given as roots. */
export function describeRoots(folders: readonly string[] | false): string {
  if (folders === false) return 'roots: none declared (the server keeps to the folders in its own arguments)';
  return folders.length ? `roots (folders it is given): ${folders.join(', ')}` : 'roots: an empty list (no folder)';
}
