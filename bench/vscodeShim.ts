/**
 * A stand-in for the `vscode` module, just enough to load dist/extension.js and run `activate()`
 * outside the editor (bench/packageCost.ts). It provides the API surface activate() and the
 * constructors it runs touch: configuration and trust, output channel, tree view, status bar, text
 * document provider, file watchers (the lockfile), tabs, commands, chat participant, secrets and mementos. Anything else the bundle
 * reads is recorded in `missing` (and is undefined), so the benchmark can say what blocks it
 * instead of silently measuring less. Handlers are stored, never invoked (no UI).
 *
 * Installed with a Module._resolveFilename hook, so a CommonJS `require('vscode')` in the bundle
 * gets this module.
 */
import Module from 'node:module';
import { join } from 'node:path';

export interface ShimOptions {
  /** `mcpHost.*` values by key without the prefix (`servers`, `activeRole`, `audit.path`, ...). */
  readonly settings: Record<string, unknown>;
  readonly workspaceFolder: string;
  /** Extension storage directory (workspace storage; the audit file goes there). */
  readonly storageDir: string;
  readonly trusted?: boolean;
  /**
   * The button every modal message is answered with at once when it offers it, as a person would
   * click it (e.g. "Allow" on the consent question before a server's first start); otherwise, and
   * for non-modal messages, the message is dismissed.
   */
  readonly modalAnswer?: string;
}

export interface InstalledShim {
  readonly vscode: Record<string, unknown>;
  readonly context: Record<string, unknown>;
  /** API names read by the bundle that the shim does not provide (e.g. `window.createWebviewPanel`). */
  readonly missing: ReadonlySet<string>;
  /** Lines written to output channels. */
  readonly output: readonly string[];
  readonly registered: { commands: string[]; participants: string[]; treeViews: string[]; contentProviders: string[] };
  uninstall(): void;
}

type Listener<T> = (e: T) => unknown;

class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  constructor(private readonly fn: () => unknown) {}
  dispose(): void {
    this.fn();
  }
}

class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', '', path, '', '');
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static parse(value: string): Uri {
    const u = new URL(value);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, join(base.path, ...segments), '', '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<Pick<Uri, 'scheme' | 'authority' | 'path' | 'query' | 'fragment'>>): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}
class ThemeColor {
  constructor(readonly id: string) {}
}
class MarkdownString {
  isTrusted?: boolean;
  supportThemeIcons?: boolean;
  constructor(
    public value = '',
    supportThemeIcons = false,
  ) {
    this.supportThemeIcons = supportThemeIcons;
  }
  appendMarkdown(v: string): this {
    this.value += v;
    return this;
  }
  appendText(v: string): this {
    this.value += v.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
  appendCodeblock(code: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}
class TreeItem {
  constructor(
    public label: unknown,
    public collapsibleState = 0,
  ) {}
}
class RelativePattern {
  constructor(
    readonly base: unknown,
    readonly pattern: string,
  ) {}
}
class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}
class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

const SHIM_ID = '\0vscode-shim';

export function installVscodeShim(options: ShimOptions): InstalledShim {
  const missing = new Set<string>();
  const output: string[] = [];
  const registered = { commands: [] as string[], participants: [] as string[], treeViews: [] as string[], contentProviders: [] as string[] };
  const noop = () => new Disposable(() => undefined);
  const modalAnswer = (rest: unknown[]) => {
    const modal = typeof rest[0] === 'object' && rest[0] !== null && (rest[0] as { modal?: boolean }).modal === true;
    return modal && options.modalAnswer !== undefined && rest.includes(options.modalAnswer) ? options.modalAnswer : undefined;
  };
  const event = () => noop();

  const settings = options.settings;
  const configuration = (section?: string) => ({
    get<T>(key: string, fallback?: T): T | undefined {
      const k = section === 'mcpHost' ? key : `${section ? `${section}.` : ''}${key}`;
      return (k in settings ? (settings[k] as T) : fallback) as T | undefined;
    },
    has(key: string): boolean {
      return section === 'mcpHost' && key in settings;
    },
    inspect(key: string) {
      return section === 'mcpHost' && key in settings ? { key, workspaceValue: settings[key] } : { key };
    },
    update: async () => undefined,
  });

  const outputChannel = (name: string) => {
    const line = (level: string) => (message: string) => void output.push(`[${name}] ${level} ${message}`);
    return {
      name,
      logLevel: 2,
      onDidChangeLogLevel: event,
      trace: line('trace'),
      debug: line('debug'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      append: line(''),
      appendLine: line(''),
      replace: line(''),
      clear: () => undefined,
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
    };
  };

  const workspaceFolderUri = Uri.file(options.workspaceFolder);
  const api: Record<string, unknown> = {
    version: '1.104.0',
    EventEmitter,
    Disposable,
    Uri,
    ThemeIcon,
    ThemeColor,
    MarkdownString,
    TreeItem,
    CancellationTokenSource,
    RelativePattern,
    TabInputTextDiff,
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    InputBoxValidationSeverity: { Info: 1, Warning: 2, Error: 3 },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    workspace: {
      getConfiguration: configuration,
      isTrusted: options.trusted ?? true,
      workspaceFolders: [{ uri: workspaceFolderUri, name: 'bench', index: 0 }],
      workspaceFile: undefined,
      textDocuments: [],
      onDidChangeConfiguration: event,
      onDidGrantWorkspaceTrust: event,
      onDidChangeWorkspaceFolders: event,
      onDidOpenTextDocument: event,
      onDidCloseTextDocument: event,
      registerTextDocumentContentProvider: (scheme: string) => {
        registered.contentProviders.push(scheme);
        return noop();
      },
      openTextDocument: async () => ({ uri: Uri.from({ scheme: 'untitled' }), getText: () => '' }),
      createFileSystemWatcher: () => ({ onDidChange: event, onDidCreate: event, onDidDelete: event, dispose: () => undefined }),
    },
    window: {
      createOutputChannel: outputChannel,
      createTreeView: (id: string) => {
        registered.treeViews.push(id);
        return { visible: true, onDidChangeVisibility: event, onDidChangeSelection: event, onDidExpandElement: event, onDidCollapseElement: event, reveal: async () => undefined, dispose: () => undefined };
      },
      createStatusBarItem: () => ({ text: '', tooltip: undefined, command: undefined, name: undefined, backgroundColor: undefined, show: () => undefined, hide: () => undefined, dispose: () => undefined }),
      showInformationMessage: async (_message: string, ...rest: unknown[]) => modalAnswer(rest),
      showWarningMessage: async (_message: string, ...rest: unknown[]) => modalAnswer(rest),
      showErrorMessage: async () => undefined,
      showQuickPick: async () => undefined,
      showInputBox: async () => undefined,
      showTextDocument: async () => undefined,
      setStatusBarMessage: () => noop(),
      tabGroups: { all: [], onDidChangeTabs: event, onDidChangeTabGroups: event, close: async () => true },
      withProgress: async (_o: unknown, task: (p: unknown, t: unknown) => unknown) => task({ report: () => undefined }, new CancellationTokenSource().token),
    },
    commands: {
      registerCommand: (id: string) => {
        registered.commands.push(id);
        return noop();
      },
      executeCommand: async () => undefined,
    },
    chat: {
      createChatParticipant: (id: string) => {
        registered.participants.push(id);
        return { id, iconPath: undefined, followupProvider: undefined, onDidReceiveFeedback: event, dispose: () => undefined };
      },
    },
    lm: {
      selectChatModels: async () => [],
      onDidChangeChatModels: event,
      // The gateway registers itself with the editor's MCP support at activation (it starts nothing until asked).
      registerMcpServerDefinitionProvider: () => noop(),
      // The stand-in model shown while no chat model is installed (noModelProvider).
      registerLanguageModelChatProvider: () => noop(),
    },
    env: { clipboard: { writeText: async () => undefined, readText: async () => '' }, appName: 'bench', language: 'en', openExternal: async () => false },
  };

  // Record what the bundle reads that is not here (one level into namespaces).
  const watch = (target: Record<string, unknown>, prefix: string): Record<string, unknown> =>
    new Proxy(target, {
      get(t, key) {
        if (typeof key === 'symbol' || key === 'then' || key === '__esModule' || key === 'default') return Reflect.get(t, key);
        if (!(key in t)) missing.add(prefix + key);
        return Reflect.get(t, key);
      },
    });
  const vscode = watch(
    Object.fromEntries(
      Object.entries(api).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) && !/^[A-Z]/.test(k) ? watch(v as Record<string, unknown>, `${k}.`) : v]),
    ),
    '',
  );

  const memento = () => {
    const store = new Map<string, unknown>();
    return { keys: () => [...store.keys()], get: <T>(k: string, d?: T) => (store.has(k) ? (store.get(k) as T) : d), update: async (k: string, v: unknown) => void store.set(k, v), setKeysForSync: () => undefined };
  };
  const secrets = new Map<string, string>();
  const context: Record<string, unknown> = watch(
    {
      subscriptions: [] as { dispose(): unknown }[],
      extension: { id: 'mcp-host-dev.mcp-host', extensionUri: Uri.file(process.cwd()), packageJSON: {} },
      extensionUri: Uri.file(process.cwd()),
      extensionPath: process.cwd(),
      extensionMode: 1,
      storageUri: Uri.file(options.storageDir),
      globalStorageUri: Uri.file(join(options.storageDir, 'global')),
      logUri: Uri.file(join(options.storageDir, 'logs')),
      workspaceState: memento(),
      globalState: memento(),
      secrets: {
        get: async (k: string) => secrets.get(k),
        store: async (k: string, v: string) => void secrets.set(k, v),
        delete: async (k: string) => void secrets.delete(k),
        onDidChange: event,
      },
      asAbsolutePath: (p: string) => join(process.cwd(), p),
    },
    'ExtensionContext.',
  );

  const M = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string; _cache: Record<string, unknown> };
  const originalResolve = M._resolveFilename;
  M._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return SHIM_ID;
    return originalResolve.call(this, request, ...rest);
  };
  const cached = { id: SHIM_ID, filename: SHIM_ID, loaded: true, exports: vscode, children: [], paths: [] };
  M._cache[SHIM_ID] = cached;

  return {
    vscode,
    context,
    missing,
    output,
    registered,
    uninstall() {
      M._resolveFilename = originalResolve;
      delete M._cache[SHIM_ID];
    },
  };
}
