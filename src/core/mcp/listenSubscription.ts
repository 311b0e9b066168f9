import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import { restartDelay, type BackoffPolicy } from './restartBackoff';

/** Re-listening after a drop: 0.5 s doubling to 30 s, and it never gives up while the connection lives. */
export const LISTEN_BACKOFF: BackoffPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, maxFailures: Number.POSITIVE_INFINITY };

export interface ListenOptions {
  readonly server: string;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  /** Bound of the wait for the server's acknowledgement. */
  readonly timeoutMs: number;
  /** The resource URIs the host follows (the editor's resource subscriptions). */
  readonly resourceUris: () => readonly string[];
  /** A subscription was opened again after a drop: what changed meanwhile was not announced, so re-list. */
  readonly onReopened: () => void;
  readonly backoff?: BackoffPolicy;
}

/**
 * What a 2026-07-28 server is asked to announce on `subscriptions/listen`: the list changes it
 * declares (`listChanged` of tools, prompts, resources) and, when it declares `resources.subscribe`,
 * updates of the followed URIs. Undefined when there is nothing to ask for (no listen then).
 */
export function listenFilter(caps: ServerCapabilities | undefined, resourceUris: readonly string[]): SubscriptionFilter | undefined {
  const filter: SubscriptionFilter = {};
  if (caps?.tools?.listChanged) filter.toolsListChanged = true;
  if (caps?.prompts?.listChanged) filter.promptsListChanged = true;
  if (caps?.resources?.listChanged) filter.resourcesListChanged = true;
  if (caps?.resources?.subscribe && resourceUris.length > 0) filter.resourceSubscriptions = [...resourceUris].sort();
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/**
 * The `subscriptions/listen` stream of one modern connection (2026-07-28 has no standalone stream
 * and no notifications outside a request): opened with the SDK's `listen()`, whose notifications
 * reach the handlers the host installed for legacy servers (list_changed, resources/updated), so
 * both eras take one path. A stream that ends unexpectedly (dropped, or ended by the server) is
 * opened again with backoff, followed by a re-list; a changed set of followed resources replaces
 * the stream; `close()` ends it for good (with the connection). Nothing for a legacy connection or
 * a server that declares nothing to listen for.
 */
export class ListenSubscription {
  private current?: McpSubscription;
  /** The filter of the stream open or being opened, to skip replacing it by an equal one. */
  private filterKey?: string;
  private failures = 0;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** Bumped by every open and by close: an older attempt's outcome is ignored. */
  private attempt = 0;

  constructor(
    private readonly client: Client,
    private readonly o: ListenOptions,
  ) {}

  /** Whether a stream is open (acknowledged by the server) now. */
  get open(): boolean {
    return this.current !== undefined;
  }

  /** The subset the server agreed to honour, while open. */
  get honored(): SubscriptionFilter | undefined {
    return this.current?.honoredFilter;
  }

  /** Open the stream (resolves once acknowledged, failed or not needed; never rejects). */
  start(): Promise<void> {
    return this.openStream(false);
  }

  /** The followed resources changed: replace the stream when its filter changes. */
  refilter(): Promise<void> {
    const filter = this.filter();
    if (this.closed || (filter && JSON.stringify(filter)) === this.filterKey) return Promise.resolve();
    return this.openStream(false);
  }

  /** End the stream for good (stop, restart, the connection lost). */
  async close(): Promise<void> {
    this.closed = true;
    this.attempt++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const sub = this.current;
    this.current = undefined;
    await sub?.close().catch(() => undefined);
  }

  private filter(): SubscriptionFilter | undefined {
    if (this.client.getProtocolEra() !== 'modern') return undefined;
    return listenFilter(this.client.getServerCapabilities(), this.o.resourceUris());
  }

  private async openStream(reopening: boolean): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const attempt = ++this.attempt;
    const previous = this.current;
    this.current = undefined;
    const filter = this.filter();
    this.filterKey = filter && JSON.stringify(filter);
    await previous?.close().catch(() => undefined);
    if (!filter) return;
    let sub: McpSubscription;
    try {
      sub = await this.client.listen(filter, { timeout: this.o.timeoutMs });
    } catch (e) {
      if (attempt !== this.attempt) return;
      // Said once per outage (a server that keeps refusing is retried every 30 s, quietly).
      const line = `[${this.o.server}] subscriptions/listen failed: ${this.o.redact(errorText(e))}`;
      if (this.failures === 0) this.o.logger.warn(`${line}; list changes are not followed until it works`);
      else this.o.logger.debug(line);
      return this.retry();
    }
    if (attempt !== this.attempt) return void sub.close().catch(() => undefined);
    this.current = sub;
    this.failures = 0;
    this.o.logger.debug(`[${this.o.server}] subscriptions/listen open: ${JSON.stringify(sub.honoredFilter)}`);
    void sub.closed.then((cause) => {
      if (attempt !== this.attempt || cause === 'local') return;
      this.current = undefined;
      this.o.logger.info(`[${this.o.server}] subscriptions/listen ${cause === 'graceful' ? 'ended by the server' : 'dropped'}; listening again`);
      this.retry();
    });
    if (reopening) this.o.onReopened();
  }

  private retry(): void {
    if (this.closed) return;
    const delay = restartDelay(this.o.backoff ?? LISTEN_BACKOFF, ++this.failures) ?? LISTEN_BACKOFF.maxDelayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.openStream(true);
    }, delay);
  }
}
