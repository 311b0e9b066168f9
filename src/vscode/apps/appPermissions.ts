import * as vscode from 'vscode';
import { buildAllowAttribute, type McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { UiPermissions } from '../../core/apps/uiMeta';

const KEY = 'mcpHost.appPermissions';
const NAMES: Readonly<Record<keyof McpUiResourcePermissions, string>> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'writing to the clipboard',
};

/** A server's answer, remembered in the workspace: which permissions were granted, which refused. */
type Remembered = Record<string, { granted: string[]; refused: string[] }>;

/**
 * The permissions an app's resource asks for (`_meta.ui.permissions`), granted only after the
 * person said yes, per server; the answer is kept in the workspace state, so a server is asked
 * again only for a permission it did not ask for before. What comes back is the iframe's `allow`
 * and the granted set (told to the view in the host's capabilities).
 */
export class AppPermissions {
  constructor(private readonly state: vscode.Memento) {}

  async allow(server: string, requested: UiPermissions | undefined): Promise<{ allow: string; granted: McpUiResourcePermissions }> {
    const wanted = (Object.keys(NAMES) as (keyof McpUiResourcePermissions)[]).filter((k) => requested?.[k] === true);
    if (!wanted.length) return { allow: '', granted: {} };
    const all = this.state.get<Remembered>(KEY) ?? {};
    const known = all[server] ?? { granted: [], refused: [] };
    const unasked = wanted.filter((k) => !known.granted.includes(k) && !known.refused.includes(k));
    if (unasked.length) {
      const list = unasked.map((k) => NAMES[k]).join(', ');
      let answer: string | undefined;
      try {
        answer = await vscode.window.showWarningMessage(
          `The app view of MCP server "${server}" asks for: ${list}.`,
          { modal: true, detail: 'Granted in this workspace for every view of this server; refused, the view runs without them.' },
          'Grant',
          'Refuse',
        );
      } catch {
        answer = undefined; // failing to ask is never consent
      }
      // Closing the dialog is no answer: asked again next time.
      if (answer === 'Grant') known.granted.push(...unasked);
      else if (answer === 'Refuse') known.refused.push(...unasked);
      if (answer) await this.state.update(KEY, { ...all, [server]: known });
    }
    const granted: McpUiResourcePermissions = {};
    for (const k of wanted) if (known.granted.includes(k)) granted[k] = {};
    return { allow: buildAllowAttribute(granted), granted };
  }
}
