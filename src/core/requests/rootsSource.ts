import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';
import type { Event } from '../util/event';
import { isWithin } from '../conditions/isWithin';

/** The roots the host offers servers (the workspace folders) and when they change. */
export interface RootsSource {
  roots(): readonly Root[];
  readonly onDidChange?: Event<void>;
  /**
   * The roots of whoever `server`'s request serves right now (the gateway: the upstream client whose
   * call it is), when there is such a someone; undefined: the host's roots as they are. The host keeps
   * only what lies within the roots the settings give the server (see rootsWithin): never wider.
   */
  readonly current?: (server: string, signal: AbortSignal) => Promise<readonly Root[] | undefined>;
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

/**
 * What lies in both `asked` and `allowed`: an asked root inside an allowed one stays as asked, an
 * allowed root inside an asked one stays as allowed; anything else goes (a path that cannot be judged
 * included). So a client's roots narrow the server's sandbox but never widen it.
 */
export function rootsWithin(asked: readonly Root[], allowed: readonly Root[]): Root[] {
  const out = new Map<string, Root>();
  const inside = (a: string, b: string) => {
    try {
      return a.startsWith('file:') && b.startsWith('file:') && isWithin(a, b);
    } catch {
      return false;
    }
  };
  for (const a of asked) {
    for (const r of allowed) {
      const kept = a.uri === r.uri || inside(a.uri, r.uri) ? a : inside(r.uri, a.uri) ? r : undefined;
      if (kept && !out.has(kept.uri)) out.set(kept.uri, kept);
    }
  }
  return [...out.values()];
}
