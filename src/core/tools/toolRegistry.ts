import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolNamingMode } from '../settings/hostSettings';
import { Emitter } from '../util/event';
import { resolveNames, serverCandidates, type NamingProblem, type ServerCandidates } from './assignToolNames';
import { definitionHash } from './definitionHash';
import { diffToolLists, isEmptyDiff, type ChangedTool } from './toolListDiff';

export interface RegistryEntry {
  /** Exposed name: unique, matches ^[a-zA-Z0-9_-]{1,64}$. */
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
  readonly definitionHash: string;
}

export interface ToolsChangedEvent {
  readonly ts: string;
  readonly server: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
}

export const DEFAULT_HISTORY_LIMIT = 50;

/**
 * `exposed name → (server, tool)` for every discovered tool, rebuilt deterministically from the
 * servers' tool lists in settings order. Also keeps a bounded history of tool-list changes per server.
 */
export class ToolRegistry {
  private readonly _onDidChange = new Emitter<void>();
  /** Any change of the exposed tool set or its naming problems. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidChangeToolList = new Emitter<ToolsChangedEvent>();
  /** A server's tool list changed after it was first discovered (list_changed, refresh, restart). */
  readonly onDidChangeToolList = this._onDidChangeToolList.event;

  private readonly toolsByServer = new Map<string, readonly Tool[]>();
  private readonly historyByServer = new Map<string, ToolsChangedEvent[]>();
  private byName = new Map<string, RegistryEntry>();
  private ordered: readonly RegistryEntry[] = [];
  private _problems: readonly NamingProblem[] = [];
  private hashes = new WeakMap<Tool, string>();
  /** Each server's candidate names, kept while its list and the naming mode stay the same. */
  private readonly candidatesByServer = new Map<string, { tools: readonly Tool[]; mode: ToolNamingMode; result: ServerCandidates }>();

  constructor(
    private mode: ToolNamingMode,
    private serverOrder: readonly string[],
    private readonly historyLimit = DEFAULT_HISTORY_LIMIT,
  ) {}

  /** Replace one server's tools. Returns the change event when the server had tools before and they differ. */
  setServerTools(server: string, tools: readonly Tool[], now: Date = new Date()): ToolsChangedEvent | undefined {
    const before = this.toolsByServer.get(server);
    this.toolsByServer.set(server, tools);
    this.candidatesByServer.delete(server);
    let event: ToolsChangedEvent | undefined;
    if (before) {
      const diff = diffToolLists(before, tools);
      if (!isEmptyDiff(diff)) {
        event = { ts: now.toISOString(), server, ...diff };
        const history = this.historyByServer.get(server) ?? [];
        history.unshift(event);
        if (history.length > this.historyLimit) history.length = this.historyLimit;
        this.historyByServer.set(server, history);
      }
    }
    this.rebuild();
    if (event) this._onDidChangeToolList.fire(event);
    return event;
  }

  /** Forget a server's tools (stopped, removed from settings). History is kept while the server is configured. */
  removeServer(server: string, keepHistory = true): void {
    const had = this.toolsByServer.delete(server);
    if (!keepHistory) this.historyByServer.delete(server);
    if (had) this.rebuild();
  }

  configure(mode: ToolNamingMode, serverOrder: readonly string[]): void {
    if (mode === this.mode && sameList(serverOrder, this.serverOrder)) return;
    this.mode = mode;
    this.serverOrder = serverOrder;
    for (const s of [...this.historyByServer.keys()]) if (!serverOrder.includes(s)) this.historyByServer.delete(s);
    this.rebuild();
  }

  lookup(name: string): RegistryEntry | undefined {
    return this.byName.get(name);
  }

  /** Find the entry of a server's tool by original name. */
  find(server: string, tool: string): RegistryEntry | undefined {
    return this.ordered.find((e) => e.server === server && e.tool.name === tool);
  }

  entries(): readonly RegistryEntry[] {
    return this.ordered;
  }

  problems(): readonly NamingProblem[] {
    return this._problems;
  }

  history(server: string): readonly ToolsChangedEvent[] {
    return this.historyByServer.get(server) ?? [];
  }

  dispose(): void {
    this._onDidChange.dispose();
    this._onDidChangeToolList.dispose();
  }

  private rebuild(): void {
    // Only a server whose list changed gets its candidate names again; the cross-server part
    // (collisions) is always settled over everything, so names never depend on what changed last.
    const perServer: ServerCandidates[] = [];
    for (const server of this.serverOrder) {
      const list = this.toolsByServer.get(server);
      if (!list) continue;
      let cached = this.candidatesByServer.get(server);
      if (!cached || cached.tools !== list || cached.mode !== this.mode) {
        cached = { tools: list, mode: this.mode, result: serverCandidates(server, list, this.mode) };
        this.candidatesByServer.set(server, cached);
      }
      perServer.push(cached.result);
    }
    for (const s of [...this.candidatesByServer.keys()]) if (!this.toolsByServer.has(s)) this.candidatesByServer.delete(s);
    const { tools, problems } = resolveNames(perServer, this.mode);
    const byName = new Map<string, RegistryEntry>();
    const ordered: RegistryEntry[] = [];
    for (const t of tools) {
      const entry = new Entry(t.name, t.server, t.tool, this.hashes);
      byName.set(t.name, entry);
      ordered.push(entry);
    }
    this.byName = byName;
    this.ordered = ordered;
    this._problems = problems;
    this._onDidChange.fire();
  }
}

/**
 * A registry entry whose definition hash is computed on first use (a call, its audit record, the
 * definition view) and then cached per tool object. Naming thousands of tools must not hash every
 * definition: that was most of the cost of building a large registry.
 */
class Entry implements RegistryEntry {
  readonly #hashes: WeakMap<Tool, string>;

  constructor(
    readonly name: string,
    readonly server: string,
    readonly tool: Tool,
    hashes: WeakMap<Tool, string>,
  ) {
    this.#hashes = hashes;
  }

  get definitionHash(): string {
    let hash = this.#hashes.get(this.tool);
    if (hash === undefined) {
      hash = definitionHash(this.tool);
      this.#hashes.set(this.tool, hash);
    }
    return hash;
  }

  toJSON(): { name: string; server: string; tool: Tool; definitionHash: string } {
    return { name: this.name, server: this.server, tool: this.tool, definitionHash: this.definitionHash };
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
