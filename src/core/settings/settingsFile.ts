import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { SettingsProblem } from './hostSettings';
import { SETTINGS_SECTION } from './settingPath';

/** The settings file cannot be used at all (missing, unreadable, not JSONC). The CLI maps it to exit code 2. */
export class SettingsFileError extends Error {
  constructor(
    message: string,
    readonly file: string,
    /** The file does not exist (imported MCP configuration files may stand in for it). */
    readonly missing = false,
  ) {
    super(message);
    this.name = 'SettingsFileError';
  }
}

/** `ValueExpected` → `value expected`. */
export function readableParseError(e: ParseError): string {
  return printParseErrorCode(e.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function describeKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Read the `mcpHost.*` settings of `<workspaceDir>/.vscode/settings.json` (JSONC: comments and
 * trailing commas allowed, like VS Code). Keys come back without the `mcpHost.` prefix, ready for
 * `parseSettings`. Both `"mcpHost.servers": …` and `"mcpHost": { "servers": … }` are accepted;
 * when a key is given both ways the flat one wins (with a warning). Other keys are ignored.
 */
export function readWorkspaceSettings(workspaceDir: string): {
  raw: Record<string, unknown>;
  problems: SettingsProblem[];
  file: string;
} {
  const file = path.join(workspaceDir, '.vscode', 'settings.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new SettingsFileError(`no .vscode/settings.json in ${workspaceDir}`, file, true);
    }
    throw new SettingsFileError(`${file}: cannot read: ${(e as Error).message}`, file);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length) {
    const first = errors[0];
    const { line, column } = lineAndColumn(text, first.offset);
    throw new SettingsFileError(`${file}:${line}:${column}: ${readableParseError(first)}`, file);
  }
  if (root === undefined) return { raw: {}, problems: [], file };
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new SettingsFileError(`${file}:1:1: expected an object at the top level, got ${describeKind(root)}`, file);
  }

  const problems: SettingsProblem[] = [];
  const flat: Record<string, unknown> = {};
  let nested: Record<string, unknown> | undefined;
  const prefix = `${SETTINGS_SECTION}.`;
  for (const [key, value] of Object.entries(root as Record<string, unknown>)) {
    if (key.startsWith(prefix)) {
      flat[key.slice(prefix.length)] = value;
    } else if (key === SETTINGS_SECTION) {
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        nested = value as Record<string, unknown>;
      } else {
        problems.push({
          severity: 'error',
          setting: SETTINGS_SECTION,
          message: `expected an object of settings, got ${describeKind(value)}; ignored`,
        });
      }
    }
  }

  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(nested ?? {})) {
    if (key in flat) {
      problems.push({
        severity: 'warning',
        setting: `${prefix}${key}`,
        message: `set twice (as "${prefix}${key}" and inside "${SETTINGS_SECTION}"); using "${prefix}${key}"`,
      });
      continue;
    }
    raw[key] = value;
  }
  Object.assign(raw, flat);
  return { raw, problems, file };
}
