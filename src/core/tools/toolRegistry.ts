import type { Tool } from '@modelcontextprotocol/client';
import type { ToolNamingMode } from '../settings/hostSettings';
import { Emitter } from '../util/event';
import { resolveNames, serverCandidates, type NamingProblem, type ServerCandidates } from './assignToolNames';
import { PrefixedNameIndex } from './prefixedNameIndex';
import { ToolEntry } from './toolEntry';
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
  /** Each named server's entries, in its list's order. */
  private entriesByServer = new Map<string, readonly ToolEntry[]>();
  /** All entries in settings order; made again from entriesByServer when asked for after a change. */
  private ordered?: readonly RegistryEntry[];
  private _problems?: readonly NamingProblem[];
  private hashes = new WeakMap<Tool, string>();
  /** Each server's candidate names, kept while its list and the naming mode stay the same. */
  private readonly candidatesByServer = new Map<string, { tools: readonly Tool[]; mode: ToolNamingMode; result: ServerCandidates }>();
  /**
   * Every name is its tool's candidate name (no two tools wanted the same one): then one server's
   * new list renames only that server's tools, in time of its own list, not of the whole registry.
   * False after a naming with a collision: the next change settles everything again.
   */
  private unique = false;
  /** Set when the naming mode and server names allow lookup by prefix (see PrefixedNameIndex). */
  private prefixed?: PrefixedNameIndex<ToolEntry>;
  /** Every name is its candidate and lookups go through `prefixed`: `byName` is not kept. */
  private partitioned = false;

  constructor(
    private mode: ToolNamingMode,
    private serverOrder: readonly string[],
    private readonly historyLimit = DEFAULT_HISTORY_LIMIT,
  ) {
    this.prefixed = indexFor(mode, serverOrder);
  }

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
    this.rebuild(server);
    if (event) this._onDidChangeToolList.fire(event);
    return event;
  }

  /** Forget a server's tools (stopped, removed from settings). History is kept while the server is configured. */
  removeServer(server: string, keepHistory = true): void {
    const had = this.toolsByServer.delete(server);
    if (!keepHistory) this.historyByServer.delete(server);
    if (had) this.rebuild(server);
  }

  configure(mode: ToolNamingMode, serverOrder: readonly string[]): void {
    if (mode === this.mode && sameList(serverOrder, this.serverOrder)) return;
    this.mode = mode;
    this.serverOrder = serverOrder;
    this.prefixed = indexFor(mode, serverOrder);
    for (const s of [...this.historyByServer.keys()]) if (!serverOrder.includes(s)) this.historyByServer.delete(s);
    this.rebuild();
  }

  lookup(name: string): RegistryEntry | undefined {
    return this.partitioned ? this.prefixed!.lookup(name, (server) => this.entriesByServer.get(server)) : this.byName.get(name);
  }

  /** Find the entry of a server's tool by original name. */
  find(server: string, tool: string): RegistryEntry | undefined {
    return this.entriesByServer.get(server)?.find((e) => e.tool.name === tool);
  }

  entries(): readonly RegistryEntry[] {
    if (!this.ordered) {
      // One concat (one array of the final size) rather than a push per entry: a third of the time.
      this.ordered = ([] as RegistryEntry[]).concat(...this.serverOrder.map((server) => this.entriesByServer.get(server) ?? []));
    }
    return this.ordered;
  }

  problems(): readonly NamingProblem[] {
    // Only ever unset while every candidate name is unique: then the problems are the servers' own.
    this._problems ??= this.serverOrder.flatMap((server) => this.candidates(server)?.problems ?? []);
    return this._problems;
  }

  history(server: string): readonly ToolsChangedEvent[] {
    return this.historyByServer.get(server) ?? [];
  }

  dispose(): void {
    this._onDidChange.dispose();
    this._onDidChangeToolList.dispose();
  }

  private rebuild(changed?: string): void {
    if (changed === undefined || !this.renameOne(changed)) this.renameAll();
    this._onDidChange.fire();
  }

  /** A server's candidate names (as entries), made again only when its list or the naming mode changed. */
  private candidates(server: string): ServerCandidates | undefined {
    const list = this.toolsByServer.get(server);
    if (!list) return undefined;
    let cached = this.candidatesByServer.get(server);
    if (!cached || cached.tools !== list || cached.mode !== this.mode) {
      cached = { tools: list, mode: this.mode, result: serverCandidates(server, list, this.mode, this.makeEntry) };
      this.candidatesByServer.set(server, cached);
    }
    return cached.result;
  }

  private readonly makeEntry = (name: string, server: string, tool: Tool): ToolEntry => new ToolEntry(name, server, tool, this.hashes);

  /**
   * Every name settled over every server (collisions are always settled over everything, so names
   * never depend on what changed last). Most registries have no collision at all: then every
   * candidate is its own entry and one map of names is all there is to build.
   */
  private renameAll(): void {
    for (const s of [...this.candidatesByServer.keys()]) if (!this.toolsByServer.has(s)) this.candidatesByServer.delete(s);
    if (this.renamePartitioned()) return;
    this.partitioned = false;
    const perServer: ServerCandidates[] = [];
    const byName = new Map<string, RegistryEntry>();
    const byServer = new Map<string, readonly ToolEntry[]>();
    let unique = true;
    for (const server of this.serverOrder) {
      const c = this.candidates(server);
      if (!c) continue;
      perServer.push(c);
      if (!unique) continue;
      for (const e of c.candidates as readonly ToolEntry[]) {
        if (byName.has(e.name)) {
          unique = false;
          break;
        }
        byName.set(e.name, e);
      }
      if (c.candidates.length) byServer.set(server, c.candidates as readonly ToolEntry[]);
    }
    this.unique = unique;
    if (unique) {
      this.byName = byName;
      this.entriesByServer = byServer;
      this.ordered = undefined;
      this._problems = undefined;
      return;
    }
    const { tools, problems } = resolveNames(perServer, this.mode);
    const all = new Map<string, RegistryEntry>();
    const ordered: ToolEntry[] = [];
    const grouped = new Map<string, ToolEntry[]>();
    for (const t of tools) {
      const entry = t instanceof ToolEntry ? t : new ToolEntry(t.name, t.server, t.tool, this.hashes);
      all.set(entry.name, entry);
      ordered.push(entry);
      const g = grouped.get(entry.server);
      if (g) g.push(entry);
      else grouped.set(entry.server, [entry]);
    }
    this.byName = all;
    this.ordered = ordered;
    this.entriesByServer = grouped;
    this._problems = problems;
  }

  /**
   * With prefixes that tell servers apart, names of different servers never meet: when each
   * server's candidates differ from each other, they are the names, and no map of all is built.
   */
  private renamePartitioned(): boolean {
    if (!this.prefixed) return false;
    const byServer = new Map<string, readonly ToolEntry[]>();
    for (const server of this.serverOrder) {
      const c = this.candidates(server);
      if (!c) continue;
      if (!c.distinct) return false;
      if (c.candidates.length) byServer.set(server, c.candidates as readonly ToolEntry[]);
    }
    this.partitioned = true;
    this.unique = true;
    this.byName = new Map();
    this.prefixed.clear();
    this.entriesByServer = byServer;
    this.ordered = undefined;
    this._problems = undefined;
    return true;
  }

  /**
   * One server's list changed while every name is its candidate name: swap that server's entries.
   * Exactly what renameAll would give, as long as the new names meet no other tool's; when one
   * does, returns false (and renameAll settles the collision).
   */
  private renameOne(server: string): boolean {
    if (!this.unique) return false;
    if (!this.toolsByServer.has(server)) this.candidatesByServer.delete(server);
    const next = this.serverOrder.includes(server) ? this.candidates(server) : undefined;
    const entries = (next?.candidates ?? []) as readonly ToolEntry[];
    if (this.partitioned) {
      if (next && !next.distinct) return false;
      this.prefixed!.invalidate(server);
      return this.swapEntries(server, entries);
    }
    // Nothing changes until the new names are known to meet no other server's and no other of this
    // server's (sanitizing can make two of its names equal): then renameAll settles it.
    const names = new Set<string>();
    for (const e of entries) {
      const current = this.byName.get(e.name);
      if ((current && current.server !== server) || names.has(e.name)) return false;
      names.add(e.name);
    }
    // A name the server keeps is overwritten in place (most of them, on a refresh); only the names
    // it no longer has are deleted.
    const before = this.entriesByServer.get(server) ?? [];
    for (const e of entries) this.byName.set(e.name, e);
    for (const e of before) if (this.byName.get(e.name) === e) this.byName.delete(e.name);
    return this.swapEntries(server, entries);
  }

  private swapEntries(server: string, entries: readonly ToolEntry[]): true {
    if (entries.length) this.entriesByServer.set(server, entries);
    else this.entriesByServer.delete(server);
    this.ordered = undefined;
    this._problems = undefined;
    return true;
  }
}

function indexFor(mode: ToolNamingMode, serverOrder: readonly string[]): PrefixedNameIndex<ToolEntry> | undefined {
  return mode === 'prefix' ? PrefixedNameIndex.forServers<ToolEntry>(serverOrder) : undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
