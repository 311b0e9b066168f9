import type { SettingsProblem } from '../settings/hostSettings';
import type { PathSegment } from '../settings/settingPath';
import type { FileLocation, JsoncDocument } from './jsoncDocument';

/** One server read from an existing MCP configuration file. */
export interface ImportedServer {
  readonly name: string;
  /** The definition in the `mcpHost.servers` format, ready for parseServers (variables already translated). */
  readonly definition: Readonly<Record<string, unknown>>;
  /** The file it came from, as shown: `.vscode/mcp.json`. */
  readonly source: string;
  /** Where its entry starts in that file. */
  readonly location: FileLocation;
}

/**
 * A VS Code `inputs` entry. `${input:ID}` becomes `${secret:ID}`: asked for once and kept in the
 * editor's secret storage (the CLI reads `MCP_HOST_SECRET_<ID>`); this says how to ask.
 */
export interface ImportedInput {
  readonly id: string;
  readonly description?: string;
  /** `promptString` with `password: true`: typed into a password box. */
  readonly password: boolean;
  readonly default?: string;
  /** `pickString`: the choices. */
  readonly options?: readonly string[];
  readonly source: string;
}

/** What one file format yields. */
export interface FormatResult {
  readonly servers: ImportedServer[];
  readonly inputs: ImportedInput[];
  readonly problems: SettingsProblem[];
}

/** What the mappers need to translate variables. */
export interface ImportContext {
  /** The folder `${workspaceFolder}` stands for; relative import paths are resolved against it. */
  readonly workspaceFolder?: string;
  /** For `${VAR:-default}` in `.mcp.json` files. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `${userHome}`. */
  readonly homeDir: string;
}

/** Collects a format's problems at their place in the file. */
export class ProblemSink {
  readonly problems: SettingsProblem[] = [];

  constructor(private readonly doc: JsoncDocument) {}

  add(severity: SettingsProblem['severity'], path: readonly PathSegment[], message: string, server?: string): void {
    const where = jsonPath(path);
    this.problems.push({
      severity,
      message: where ? `${where}: ${message}` : message,
      location: this.doc.locate(path),
      ...(server !== undefined ? { server } : {}),
    });
  }
}

/** `['servers', 'x', 'args', 1]` → `servers.x.args[1]` (odd keys quoted). */
export function jsonPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[\w$-]+$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
