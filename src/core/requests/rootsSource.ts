import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
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
