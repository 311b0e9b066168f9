import type { Client } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import { DisposableStore, Emitter } from '../util/event';
import type { Logger } from '../util/logger';
import { PromptCatalog } from './promptCatalog';
import { ResourceCatalog } from './resourceCatalog';
import { toMcpLoggingLevel, type LogLevelSource } from './serverLogLevel';
import type { CallClocks } from './call/toolCall';

export interface ServerCatalogsOptions {
  readonly server: string;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  readonly listTimeoutMs: number;
  /** Quiet time that coalesces a burst of list_changed notifications into one refresh. */
  readonly refreshDebounceMs?: number;
  /** `logging/setLevel` follows it, for servers that declare `logging`. */
  readonly logLevel?: LogLevelSource;
  /** The followed resources changed while a 2026-07-28 server is connected (its listen filter follows). */
  readonly onSubscriptionsChanged?: () => void;
  /** The connection's call clocks: reads and prompts are timed on them (onCallClock). */
  readonly calls?: CallClocks;
}

/**
 * What a connection offers besides tools, attached to each new client after `initialize`: its
 * resources, templates and prompts (with their list_changed and resources/updated notifications),
 * and its log level.
 */
export class ServerCatalogs {
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  private client?: Client;
  private readonly store = new DisposableStore();
  private readonly _onDidChange = this.store.add(new Emitter<void>());
  /** The resources, templates or prompts changed. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly o: ServerCatalogsOptions) {
    const common = { server: o.server, logger: o.logger, redact: o.redact, listTimeoutMs: o.listTimeoutMs, debounceMs: o.refreshDebounceMs ?? 30, onDidChange: () => this._onDidChange.fire(), onSubscriptionsChanged: o.onSubscriptionsChanged, clocks: o.calls };
    this.resources = new ResourceCatalog(common);
    this.prompts = new PromptCatalog(common);
    if (o.logLevel?.onDidChange) {
      this.store.add(
        o.logLevel.onDidChange(() => {
          if (this.client) void this.setLevel(this.client);
        }),
      );
    }
  }

  /** Install the notification handlers and list everything (never rejects). */
  async attach(client: Client): Promise<void> {
    this.client = client;
    const caps = client.getServerCapabilities() ?? {};
    const live = (run: () => void) => () => {
      if (this.client === client) run();
    };
    if (caps.resources) {
      client.setNotificationHandler('notifications/resources/list_changed', live(() => this.resources.listChanged()));
      client.setNotificationHandler('notifications/resources/updated', (n) => live(() => this.resources.updated(n.params.uri))());
    }
    if (caps.prompts) client.setNotificationHandler('notifications/prompts/list_changed', live(() => this.prompts.listChanged()));
    await Promise.all([this.resources.attach(client), this.prompts.attach(client), this.setLevel(client)]);
  }

  /** A listen stream was opened again after a drop: what changed meanwhile was not announced. */
  relist(): void {
    if (!this.client) return;
    this.resources.listChanged();
    this.prompts.listChanged();
  }

  detach(): void {
    this.client = undefined;
    this.resources.detach();
    this.prompts.detach();
  }

  close(): void {
    this.client = undefined;
    this.resources.close();
    this.prompts.close();
    this.store.dispose();
  }

  private async setLevel(client: Client): Promise<void> {
    const source = this.o.logLevel;
    if (!source || !client.getServerCapabilities()?.logging) return;
    const level = toMcpLoggingLevel(source.level);
    try {
      await client.setLoggingLevel(level, { timeout: this.o.listTimeoutMs });
      this.o.logger.debug(`[${this.o.server}] logging/setLevel ${level}`);
    } catch (e) {
      this.o.logger.warn(`[${this.o.server}] logging/setLevel ${level} failed: ${this.o.redact(errorText(e))}`);
    }
  }
}
