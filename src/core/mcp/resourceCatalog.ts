import type { Client } from '@modelcontextprotocol/client';
import type { ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import type { CallClocks } from './call/toolCall';
import { Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import { ServerList } from './serverList';

export interface CatalogOptions {
  readonly server: string;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  /** Bound of each list request. */
  readonly listTimeoutMs: number;
  readonly debounceMs: number;
  readonly onDidChange: () => void;
  /** The followed URIs changed while a 2026-07-28 server is connected: its `subscriptions/listen` filter follows. */
  readonly onSubscriptionsChanged?: () => void;
  /** The connection's call clocks (ServerCalls): reads and prompts are timed on them. */
  readonly clocks?: CallClocks;
}

/**
 * One read or prompt of a catalog timed like a tool call: on the connection's clock, which stops
 * while a person answers a question the server asks meanwhile (a 2025-era elicitation during the
 * read, a 2026-07-28 input request), so the time a person takes is not the server hanging. Without
 * clocks, the SDK's own timeout.
 */
export async function onCallClock<T>(o: CatalogOptions, timeoutMs: number, signal: AbortSignal | undefined, send: (options: { timeout: number; signal?: AbortSignal }) => Promise<T>): Promise<T> {
  if (!o.clocks) return send({ timeout: timeoutMs, ...(signal ? { signal } : {}) });
  const clock = o.clocks.begin(o.server, undefined, timeoutMs, signal, false, timeoutMs);
  try {
    return await send({ timeout: clock.sdkTimeoutMs, signal: clock.signal });
  } finally {
    clock.end();
  }
}

/**
 * A server's resources and resource templates (every page, refreshed on
 * `notifications/resources/list_changed`), reads, and subscriptions: a subscribed URI is
 * subscribed again on every new connection (`resources/subscribe` for a legacy server; for a
 * 2026-07-28 server it is part of the connection's `subscriptions/listen` filter), and
 * `notifications/resources/updated` fires `onDidUpdate`.
 */
export class ResourceCatalog {
  private client?: Client;
  private readonly subscriptions = new Set<string>();
  private readonly resourceList: ServerList<Resource>;
  private readonly templateList: ServerList<ResourceTemplate>;
  private readonly _onDidUpdate = new Emitter<string>();
  /** A subscribed resource changed (its URI). */
  readonly onDidUpdate = this._onDidUpdate.event;

  constructor(private readonly o: CatalogOptions) {
    const common = { server: o.server, logger: o.logger, redact: o.redact, timeoutMs: o.listTimeoutMs, debounceMs: o.debounceMs, onDidChange: o.onDidChange };
    this.resourceList = new ServerList<Resource>({
      ...common,
      what: 'resources/list',
      fetchPage: async (c, cursor, timeout) => {
        const r = await c.listResources(cursor === undefined ? undefined : { cursor }, { timeout });
        return { items: r.resources, nextCursor: r.nextCursor };
      },
    });
    this.templateList = new ServerList<ResourceTemplate>({
      ...common,
      what: 'resources/templates/list',
      fetchPage: async (c, cursor, timeout) => {
        const r = await c.listResourceTemplates(cursor === undefined ? undefined : { cursor }, { timeout });
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      },
    });
  }

  get resources(): readonly Resource[] {
    return this.resourceList.items;
  }

  get templates(): readonly ResourceTemplate[] {
    return this.templateList.items;
  }

  /** The URIs followed (`subscribe`d), connected or not. */
  get subscribed(): readonly string[] {
    return [...this.subscriptions];
  }

  /** The server declares `resources` (while connected). */
  get supported(): boolean {
    return !!this.client?.getServerCapabilities()?.resources;
  }

  /** List every page and renew subscriptions; nothing when the server has no resources. Never rejects. */
  async attach(client: Client): Promise<void> {
    this.client = client;
    if (!this.supported) return;
    await Promise.all([this.resourceList.attach(client), this.templateList.attach(client)]);
    if (client.getServerCapabilities()?.resources?.subscribe && !listens(client)) {
      for (const uri of this.subscriptions) void this.send(client, 'subscribe', uri);
    }
  }

  /** `notifications/resources/list_changed`. */
  listChanged(): void {
    this.resourceList.changed();
    this.templateList.changed();
  }

  /** `notifications/resources/updated`. */
  updated(uri: string): void {
    this._onDidUpdate.fire(uri);
  }

  detach(): void {
    this.client = undefined;
    this.resourceList.detach();
    this.templateList.detach();
  }

  read(uri: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ReadResourceResult> {
    const client = this.require();
    return onCallClock(this.o, options.timeoutMs, options.signal, (sent) => client.readResource({ uri }, sent));
  }

  /** Follow changes of `uri` (`resources/subscribe`) while subscribed; false when the server cannot. */
  async subscribe(uri: string): Promise<boolean> {
    const added = !this.subscriptions.has(uri);
    this.subscriptions.add(uri);
    const client = this.client;
    if (!client?.getServerCapabilities()?.resources?.subscribe) return false;
    if (!listens(client)) return this.send(client, 'subscribe', uri);
    if (added) this.o.onSubscriptionsChanged?.();
    return true;
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscriptions.delete(uri)) return;
    const client = this.client;
    if (!client?.getServerCapabilities()?.resources?.subscribe) return;
    if (listens(client)) this.o.onSubscriptionsChanged?.();
    else await this.send(client, 'unsubscribe', uri);
  }

  close(): void {
    this.client = undefined;
    this.resourceList.close();
    this.templateList.close();
    this._onDidUpdate.dispose();
  }

  private require(): Client {
    if (!this.client || !this.supported) throw new Error(`server "${this.o.server}" offers no resources`);
    return this.client;
  }

  private async send(client: Client, op: 'subscribe' | 'unsubscribe', uri: string): Promise<boolean> {
    try {
      if (op === 'subscribe') await client.subscribeResource({ uri }, { timeout: this.o.listTimeoutMs });
      else await client.unsubscribeResource({ uri }, { timeout: this.o.listTimeoutMs });
      return true;
    } catch (e) {
      this.o.logger.warn(`[${this.o.server}] resources/${op} ${uri} failed: ${this.o.redact(errorText(e))}`);
      return false;
    }
  }
}

/** A 2026-07-28 connection: resource updates are asked for on `subscriptions/listen`, not with `resources/subscribe`. */
function listens(client: Client): boolean {
  return client.getProtocolEra() === 'modern';
}
