import * as vscode from 'vscode';
import { envSecretResolver, type SecretResolver } from '../core/settings/resolveServerSettings';
import type { ImportedInput } from '../core/sources/importedServer';
import type { Logger } from '../core/util/logger';
import { inputGate } from './inputGate';

const KNOWN_NAMES_KEY = 'mcpHost.secretNames';

/**
 * `${secret:NAME}` over the extension's SecretStorage, then (like the CLI) `MCP_HOST_SECRET_NAME`
 * from the environment. A missing secret is asked for once per session with a password box,
 * without holding up the server start: the server fails with "secret … is not set" and starts
 * again when the value is stored (see `onDidChange`). Values are never logged.
 */
export class SecretStore implements SecretResolver, vscode.Disposable {
  private readonly prompted = new Set<string>();
  private readonly _onDidChange = new vscode.EventEmitter<string>();
  /** The name of a secret that was stored or deleted (here or in another window). */
  readonly onDidChange = this._onDidChange.event;
  private readonly subscription: vscode.Disposable;
  private readonly env = envSecretResolver(process.env);

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
    private readonly logger: Logger,
    /** Which servers use a secret, for the prompt. */
    private readonly usedBy: (name: string) => readonly string[],
    /** The VS Code `inputs` entry a secret stands for (`${input:ID}` of an imported mcp.json): how to ask. */
    private readonly input: (name: string) => ImportedInput | undefined = () => undefined,
  ) {
    this.subscription = storage.onDidChange((e) => this._onDidChange.fire(e.key));
  }

  async get(name: string): Promise<string | undefined> {
    const value = await this.storage.get(name);
    if (value) return value;
    // Same fallback as the CLI (MCP_HOST_SECRET_NAME), so headless runs need no prompt.
    const fromEnv = await this.env.get(name);
    if (fromEnv) return fromEnv;
    this.promptOnce(name);
    return undefined;
  }

  /** Ask for a value and store it; undefined when the user cancels. */
  async ask(name: string): Promise<boolean> {
    const servers = this.usedBy(name);
    const input = this.input(name);
    const usedBy = servers.length ? `, used by ${servers.map((s) => `"${s}"`).join(', ')}` : '';
    const what = input ? `\${input:${name}} of ${input.source}` : `\${secret:${name}}`;
    const prompt = `${input?.description ? `${input.description} — ` : ''}value of ${what}${usedBy}. It is kept in the editor's secret storage.`;
    const value = await inputGate.during(() =>
      input?.options?.length
        ? vscode.window.showQuickPick([...input.options], { title: `MCP Host: ${input.description ?? name}`, placeHolder: prompt, ignoreFocusOut: true })
        : vscode.window.showInputBox({
            title: `MCP Host: ${input ? `input "${name}"` : `secret "${name}"`}`,
            prompt,
            password: input ? input.password : true,
            value: input?.default,
            ignoreFocusOut: true,
            validateInput: (v) => (v ? undefined : 'Enter a value, or press Escape to cancel.'),
          }),
    );
    if (!value) return false;
    await this.store(name, value);
    return true;
  }

  async store(name: string, value: string): Promise<void> {
    await this.storage.store(name, value);
    await this.remember(name, true);
    this.logger.info(`secret "${name}" stored`);
  }

  async delete(name: string): Promise<void> {
    await this.storage.delete(name);
    await this.remember(name, false);
    this.prompted.delete(name);
    this.logger.info(`secret "${name}" deleted`);
  }

  /** Names stored through MCP Host (SecretStorage cannot list keys on every supported editor version). */
  storedNames(): string[] {
    return [...(this.memento.get<string[]>(KNOWN_NAMES_KEY) ?? [])];
  }

  dispose(): void {
    this.subscription.dispose();
    this._onDidChange.dispose();
  }

  private promptOnce(name: string): void {
    if (this.prompted.has(name)) return;
    this.prompted.add(name);
    this.logger.warn(`secret "${name}" is not set; asking for it`);
    this.ask(name).catch((e) => this.logger.warn(`asking for secret "${name}" failed: ${(e as Error)?.message ?? String(e)}`));
  }

  private async remember(name: string, stored: boolean): Promise<void> {
    const names = new Set(this.storedNames());
    if (stored) names.add(name);
    else names.delete(name);
    await this.memento.update(KNOWN_NAMES_KEY, [...names].sort());
  }
}
