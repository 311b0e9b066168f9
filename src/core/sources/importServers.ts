import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeValue } from '../settings/describeValue';
import type { SettingsProblem } from '../settings/hostSettings';
import { isPlainObject } from '../settings/isPlainObject';
import { mapDotMcpJson } from './dotMcpJson';
import type { ImportContext, ImportedInput, ImportedServer } from './importedServer';
import { JsoncDocument } from './jsoncDocument';
import { mapVscodeMcpJson } from './vscodeMcpJson';

export interface ImportResult {
  /** In file order, each name once (the first file that defines a name wins). */
  readonly servers: readonly ImportedServer[];
  readonly inputs: readonly ImportedInput[];
  readonly problems: readonly SettingsProblem[];
  /** Absolute paths of every file in the list, read or not (what to watch). */
  readonly files: readonly string[];
  /** The files that exist, as shown (`.mcp.json`). */
  readonly found: readonly string[];
}

export interface ImportOptions extends ImportContext {
  /** Reads a file; throws like `fs.readFileSync` (ENOENT: not there, skipped). */
  readonly readFile?: (absolutePath: string) => string;
}

/**
 * Reads the servers of existing MCP configuration files, in list order. The format is told by the
 * content: `servers` is VS Code's mcp.json, `mcpServers` the `.mcp.json` format. A file that does not
 * exist is skipped quietly (the default list names files most projects lack); one that cannot be
 * read or parsed gives a problem with its file, line and column and imports nothing. Never throws.
 */
export function importServers(files: readonly string[], options: ImportOptions): ImportResult {
  const read = options.readFile ?? ((p: string) => fs.readFileSync(p, 'utf8'));
  const servers: ImportedServer[] = [];
  const inputs: ImportedInput[] = [];
  const problems: SettingsProblem[] = [];
  const absolute: string[] = [];
  const found: string[] = [];
  const byName = new Map<string, ImportedServer>();

  for (const entry of files) {
    if (!path.isAbsolute(entry) && !options.workspaceFolder) continue; // nothing to resolve it against
    const file = path.resolve(options.workspaceFolder ?? '', entry);
    absolute.push(file);
    const shown = displayPath(file, options.workspaceFolder);
    let text: string;
    try {
      text = read(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      problems.push({ severity: 'error', message: `cannot read: ${(e as Error).message}; nothing is imported from it`, location: { file: shown, line: 1, column: 1 } });
      continue;
    }
    found.push(shown);
    const parsed = JsoncDocument.parse(shown, text);
    if ('error' in parsed) {
      problems.push({ severity: 'error', message: `${parsed.error.message}; nothing is imported from this file`, location: parsed.error.at });
      continue;
    }
    const doc = parsed.doc;
    if (doc.value === undefined) continue; // an empty file
    const root = doc.value;
    if (!isPlainObject(root)) {
      problems.push({ severity: 'error', message: `expected an object with "servers" (VS Code) or "mcpServers" (.mcp.json), got ${describeValue(root)}; nothing is imported`, location: doc.locate([]) });
      continue;
    }
    if (!('servers' in root) && !('mcpServers' in root)) {
      problems.push({ severity: 'warning', message: 'neither "servers" (VS Code) nor "mcpServers" (.mcp.json) is defined; nothing is imported', location: doc.locate([]) });
      continue;
    }
    const result = 'servers' in root ? mapVscodeMcpJson(doc, shown, options) : mapDotMcpJson(doc, shown, options);
    problems.push(...result.problems);
    for (const input of result.inputs) if (!inputs.some((i) => i.id === input.id)) inputs.push(input);
    for (const server of result.servers) {
      const earlier = byName.get(server.name);
      if (earlier) {
        problems.push({
          severity: 'warning',
          message: `server "${server.name}" is also defined in ${earlier.source}, which comes first in mcpHost.import; this one is not used`,
          location: server.location,
          server: server.name,
        });
        continue;
      }
      byName.set(server.name, server);
      servers.push(server);
    }
  }
  return { servers, inputs, problems, files: absolute, found };
}

/** `.vscode/mcp.json` for a file inside the workspace folder, else the absolute path. */
function displayPath(file: string, workspaceFolder: string | undefined): string {
  if (!workspaceFolder) return file;
  const rel = path.relative(workspaceFolder, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}
