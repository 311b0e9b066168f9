import { InMemoryResponseCacheStore, type CacheEntry, type CacheKey, type CacheScope, type ResponseCacheStore } from '@modelcontextprotocol/client';
import type { ListedTools } from './listAllTools';

/** The longest a server's `ttlMs` is honoured here (the SDK's own bound is a day). */
export const MAX_CACHE_TTL_MS = 10 * 60_000;

/**
 * What one configured server's results may be served from (2026-07-28 `ttlMs` / `cacheScope`), kept
 * by its connection across reconnects and bound to one identity: the server as resolved, its
 * credentials included (serverIdentity). When the identity changes (another token, another URL),
 * everything held is dropped first, so no result, `private` or `public`, ever crosses two servers or
 * two credentials. A server's `ttlMs` is capped at `maxTtlMs`; `ttlMs: 0` (or none) is stale at once.
 *
 * Two halves: the store behind the SDK client's own cache (resources/read, the `tools/list` index
 * its header mirroring reads), and the host's tool list as the host checked it (tool by tool:
 * the SDK's strict list parse would lose a whole list to one malformed tool), used by a connect's
 * discovery while fresh and dropped on every change notification.
 */
export class ServerResponseCache implements ResponseCacheStore {
  private readonly store = new InMemoryResponseCacheStore();
  private identity?: string;
  private tools?: { readonly listed: ListedTools; readonly expiresAt: number };

  constructor(
    private readonly maxTtlMs = MAX_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The identity of the connection about to open; another one than before empties the cache. Returns the SDK's `cachePartition`. */
  useIdentity(identity: string): string {
    if (identity !== this.identity) {
      this.store.clear();
      this.tools = undefined;
      this.identity = identity;
    }
    return identity;
  }

  /** The tool list of the last full discovery while its `ttlMs` (capped) has not run out. */
  freshTools(): ListedTools | undefined {
    const held = this.tools;
    if (held && held.expiresAt > this.now()) return held.listed;
    return undefined;
  }

  /** Keep a full discovery's list for `ttlMs` (the server's hint on the first page); none or ≤ 0 keeps nothing. */
  keepTools(listed: ListedTools, ttlMs: number | undefined): void {
    this.tools = ttlMs !== undefined && ttlMs > 0 ? { listed, expiresAt: this.now() + Math.min(ttlMs, this.maxTtlMs) } : undefined;
  }

  /** The tools changed (list_changed, a drop of the listen stream): never served from here again. */
  dropTools(): void {
    this.tools = undefined;
  }

  // --- ResponseCacheStore: the SDK's half, with the cap on every write ---

  get(key: CacheKey): CacheEntry | undefined {
    return this.store.get(key);
  }

  set(key: CacheKey, entry: { value: string; expiresAt?: number; scope?: CacheScope }): number {
    const cap = this.now() + this.maxTtlMs;
    return this.store.set(key, { ...entry, expiresAt: Math.min(entry.expiresAt ?? cap, cap) });
  }

  delete(key: CacheKey): void {
    this.store.delete(key);
  }

  evict(method: string): void {
    this.store.evict(method);
  }

  clear(): void {
    this.store.clear();
    this.tools = undefined;
  }
}
