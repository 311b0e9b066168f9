import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../core/settings/settingPath';
import { KNOWN_SETTING_KEYS } from '../core/settings/settingsSchema';
import { readWorkspaceSettings as readSettingsFile } from '../core/settings/settingsFile';

/** The part of `vscode.WorkspaceConfiguration` the reader needs (a fake in tests). */
export interface ConfigurationLike {
  get<T>(section: string): T | undefined;
}

/**
 * The `mcpHost.*` values as the raw record `parseSettings()` takes: keys without the prefix,
 * `audit.path` dotted, plain JSON copies (the editor hands out frozen proxies). A value left at
 * an "unset" default (`null`, or `""` for the audit path) is omitted, so the core's defaults and
 * validation apply exactly as for the CLI's settings.json reader.
 */
export function readRawSettings(config: ConfigurationLike): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of KNOWN_SETTING_KEYS) {
    const value = config.get<unknown>(key);
    if (value === undefined || value === null) continue;
    if (key === 'audit.path' && value === '') continue;
    raw[key] = plainCopy(value);
  }
  return raw;
}

/**
 * Settings shown, never used, while the workspace is untrusted. The editor then hides the
 * workspace's values of restricted settings (`get` and `inspect` alike), so the workspace's servers
 * would vanish from the view instead of showing as "untrusted". The host starts nothing while
 * untrusted, so for display these keys are read from the folder's `.vscode/settings.json` (parsed,
 * nothing run); the other restricted settings stay as the editor gives them. Trust reloads the settings.
 */
export const SHOWN_WHILE_UNTRUSTED = ['servers', 'roles'] as const;

export function withUntrustedWorkspaceValues(raw: Record<string, unknown>, fromFile: Record<string, unknown>): Record<string, unknown> {
  const out = { ...raw };
  for (const key of SHOWN_WHILE_UNTRUSTED) if (fromFile[key] !== undefined) out[key] = fromFile[key];
  return out;
}

/** Read the current `mcpHost.*` settings of the window. */
export function readWindowSettings(): Record<string, unknown> {
  const raw = readRawSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION));
  if (vscode.workspace.isTrusted) return raw;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme !== 'file') return raw;
  try {
    return withUntrustedWorkspaceValues(raw, readSettingsFile(folder.fsPath).raw);
  } catch {
    return raw; // no settings file, or one that does not parse: nothing more to show
  }
}

function plainCopy(value: unknown): unknown {
  return typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value;
}
