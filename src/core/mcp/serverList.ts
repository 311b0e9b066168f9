import type { Client } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import { CoalescedRefresh } from './coalescedRefresh';
import { listAllPages, type Page } from './listAllPages';

export interface ServerListOptions<T> {
  /** The method, for messages: "resources/list". */
  readonly what: string;
  readonly fetchPage: (client: Client, cursor: string | undefined, timeoutMs: number) => Promise<Page<T>>;
  readonly server: string;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  readonly timeoutMs: number;
  readonly debounceMs: number;
  /** The items changed (a refresh finished or the list was cleared). */
  readonly onDidChange: () => void;
}

/**
 * One list a server offers besides its tools (resources, resource templates, prompts), kept in
 * step with the connected client: every page on attach, refreshed (coalesced) on the server's
 * list_changed notification, cleared on detach. A failing list is logged and left empty; it never
 * fails the connection.
 */
export class ServerList<T> {
  private client?: Client;
  private _items: readonly T[] = [];
  private readonly refresh: CoalescedRefresh;

  constructor(private readonly o: ServerListOptions<T>) {
    this.refresh = new CoalescedRefresh(
      () => this.load(),
      (e) => o.logger.warn(`[${o.server}] ${o.what} failed: ${o.redact(errorText(e))}`),
      o.debounceMs,
    );
  }

  get items(): readonly T[] {
    return this._items;
  }

  /** List every page from `client` now (never rejects). */
  attach(client: Client): Promise<void> {
    this.client = client;
    return this.refresh.now();
  }

  /** A list_changed notification: refresh after a short quiet time. */
  changed(): void {
    if (this.client) this.refresh.soon();
  }

  detach(): void {
    this.client = undefined;
    this.refresh.cancel();
    if (this._items.length === 0) return;
    this._items = [];
    this.o.onDidChange();
  }

  close(): void {
    this.client = undefined;
    this.refresh.close();
  }

  private async load(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const items = await listAllPages(this.o.what, (cursor) => this.o.fetchPage(client, cursor, this.o.timeoutMs));
    if (client !== this.client) return;
    this._items = items;
    this.o.logger.debug(`[${this.o.server}] ${this.o.what}: ${items.length}`);
    this.o.onDidChange();
  }
}
