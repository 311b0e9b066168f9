import type { Client } from '@modelcontextprotocol/client';
import type { CompleteRequest, CompleteResult, GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import { onCallClock, type CatalogOptions } from './resourceCatalog';
import { ServerList } from './serverList';

export type CompletionRef = CompleteRequest['params']['ref'];

/**
 * A server's prompts (every page, refreshed on `notifications/prompts/list_changed`), `prompts/get`,
 * and `completion/complete` for prompt and resource-template arguments.
 */
export class PromptCatalog {
  private client?: Client;
  private readonly list: ServerList<Prompt>;

  constructor(private readonly o: CatalogOptions) {
    this.list = new ServerList<Prompt>({
      server: o.server,
      logger: o.logger,
      redact: o.redact,
      timeoutMs: o.listTimeoutMs,
      debounceMs: o.debounceMs,
      onDidChange: o.onDidChange,
      what: 'prompts/list',
      fetchPage: async (c, cursor, timeout) => {
        const r = await c.listPrompts(cursor === undefined ? undefined : { cursor }, { timeout });
        return { items: r.prompts, nextCursor: r.nextCursor };
      },
    });
  }

  get prompts(): readonly Prompt[] {
    return this.list.items;
  }

  /** The server declares `prompts` (while connected). */
  get supported(): boolean {
    return !!this.client?.getServerCapabilities()?.prompts;
  }

  /** The server declares `completions` (while connected). */
  get completes(): boolean {
    return !!this.client?.getServerCapabilities()?.completions;
  }

  /** List every page; nothing when the server has no prompts. Never rejects. */
  async attach(client: Client): Promise<void> {
    this.client = client;
    if (this.supported) await this.list.attach(client);
  }

  /** `notifications/prompts/list_changed`. */
  listChanged(): void {
    this.list.changed();
  }

  detach(): void {
    this.client = undefined;
    this.list.detach();
  }

  get(name: string, args: Record<string, string>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<GetPromptResult> {
    const client = this.client;
    if (!client || !this.supported) throw new Error(`server "${this.o.server}" offers no prompts`);
    return onCallClock(this.o, options.timeoutMs, options.signal, (sent) => client.getPrompt({ name, arguments: args }, sent));
  }

  /** Completions of one argument; no values when the server offers no completions. */
  async complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: Record<string, string> | undefined,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CompleteResult['completion']> {
    if (!this.client || !this.completes) return { values: [] };
    const r = await this.client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) }, { timeout: options.timeoutMs, signal: options.signal });
    return r.completion;
  }

  close(): void {
    this.client = undefined;
    this.list.close();
  }
}
