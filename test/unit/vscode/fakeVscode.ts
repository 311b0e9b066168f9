/**
 * A small stand-in for the 'vscode' module so the editor adapters run under plain mocha.
 * Only the classes and functions the tested modules touch; importing this file first installs it.
 */
import Module from 'node:module';

export class LanguageModelTextPart {
  constructor(public value: string) {}
}
export class LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class LanguageModelDataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
  static image(data: Uint8Array, mime: string): LanguageModelDataPart {
    return new LanguageModelDataPart(data, mime);
  }
}
export enum LanguageModelChatMessageRole {
  User = 1,
  Assistant = 2,
}
export class LanguageModelChatMessage {
  constructor(
    public role: LanguageModelChatMessageRole,
    public content: unknown[] | string,
    public name?: string,
  ) {}
  static User(content: unknown[] | string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content);
  }
  static Assistant(content: unknown[] | string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content);
  }
}

export class CancellationTokenSource {
  private listeners: (() => void)[] = [];
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => {
      this.listeners.push(l);
      return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
    },
  };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    for (const l of this.listeners) l();
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}
export class ThemeColor {
  constructor(public id: string) {}
}
export class ThemeIcon {
  constructor(
    public id: string,
    public color?: ThemeColor,
  ) {}
}
export class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '') {}
}
export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: unknown;
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class Uri {
  private constructor(private readonly value: string) {}
  static parse(value: string, _strict?: boolean): Uri {
    return new Uri(value);
  }
  /** Like vscode.Uri: encoded by default; with `skipEncoding` every percent escape decoded. */
  toString(skipEncoding?: boolean): string {
    return skipEncoding ? this.value.replace(/%[0-9a-f]{2}/gi, (e) => decodeURIComponent(e)) : this.value;
  }
}

export class McpHttpServerDefinition {
  constructor(
    readonly label: string,
    public uri: Uri,
    public headers: Record<string, string> = {},
    public version?: string,
  ) {}
}

/** Settings by full key (`mcpHost.gateway.enabled`); `fake.setConfiguration` changes one and fires the event. */
const configuration = new Map<string, unknown>();
const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
export const workspace = {
  getConfiguration: (section?: string) => ({ get: <T>(key: string): T | undefined => configuration.get(section ? `${section}.${key}` : key) as T | undefined }),
  onDidChangeConfiguration: configurationChanged.event,
};

function setConfiguration(key: string, value: unknown): void {
  if (value === undefined) configuration.delete(key);
  else configuration.set(key, value);
  configurationChanged.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
}

/** Replaceable by tests. */
export const env = {
  openExternal: async (_target: Uri): Promise<boolean> => true,
};

/** Replaceable by tests. */
export const window = {
  showWarningMessage: async (..._args: unknown[]): Promise<string | undefined> => undefined,
  showInputBox: async (_options?: unknown): Promise<string | undefined> => undefined,
  showQuickPick: async (_items: unknown, _options?: unknown): Promise<unknown> => undefined,
};

export const fake = {
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  LanguageModelDataPart,
  LanguageModelChatMessage,
  LanguageModelChatMessageRole,
  CancellationTokenSource,
  EventEmitter,
  TreeItemCollapsibleState,
  ThemeColor,
  ThemeIcon,
  MarkdownString,
  TreeItem,
  Uri,
  McpHttpServerDefinition,
  workspace,
  setConfiguration,
  env,
  window,
};

const ID = 'vscode';
type ResolveFilename = (request: string, ...rest: unknown[]) => string;
const M = Module as unknown as { _resolveFilename: ResolveFilename & { mcpHostFake?: true }; _cache: Record<string, unknown> };
if (!M._resolveFilename.mcpHostFake) {
  const original = M._resolveFilename;
  const patched: ResolveFilename & { mcpHostFake?: true } = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === ID ? ID : original.call(this, request, ...rest);
  };
  patched.mcpHostFake = true;
  M._resolveFilename = patched;
  M._cache[ID] = { id: ID, filename: ID, loaded: true, exports: fake };
}
