import type { CompleteResult } from '@modelcontextprotocol/client';
import { PromptRunner, type PromptRequest, type PromptResult } from '../calls/promptRunner';
import { ResourceReader, type ReaderOptions, type ResourceReadRequest, type ResourceReadResult } from '../calls/resourceReader';
import type { CompletionRef } from '../mcp/promptCatalog';
import type { ResourceUpdatedEvent } from '../mcp/serverFleet';
import { canonicalUri } from '../policy/canonicalUri';
import type { Event } from '../util/event';

export type { PromptRequest, PromptResult } from '../calls/promptRunner';
export type { ResourceReadRequest, ResourceReadResult } from '../calls/resourceReader';
export type { ResourceUpdatedEvent } from '../mcp/serverFleet';

export interface CompletionRequest {
  readonly server: string;
  /** `{ type: "ref/prompt", name }` or `{ type: "ref/resource", uri: <the URI template> }`. */
  readonly ref: CompletionRef;
  readonly argument: { readonly name: string; readonly value: string };
  /** Arguments already given (they may narrow the completions). */
  readonly context?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/**
 * The resources and prompts of the servers, as McpHost offers them (`host.catalog`): reads and
 * prompt uses through their one audited path, argument completions and resource subscriptions.
 * Everything is gated by the active role; what a view lists is in the snapshot.
 */
export class HostCatalog {
  private readonly reader: ResourceReader;
  private readonly runner: PromptRunner;
  /** A subscribed resource changed. */
  readonly onDidUpdateResource: Event<ResourceUpdatedEvent>;

  constructor(private readonly o: ReaderOptions) {
    this.reader = new ResourceReader(o);
    this.runner = new PromptRunner(o);
    this.onDidUpdateResource = o.servers.onDidUpdateResource;
  }

  readResource(request: ResourceReadRequest): Promise<ResourceReadResult> {
    return this.reader.read(request);
  }

  getPrompt(request: PromptRequest): Promise<PromptResult> {
    return this.runner.get(request);
  }

  /** `completion/complete` where the server offers it and the role may use the prompt or template; otherwise no values. Never rejects. */
  async complete(request: CompletionRequest): Promise<CompleteResult['completion']> {
    const policy = this.o.policies.current;
    const { server, ref } = request;
    let checked: CompletionRef | undefined;
    if (ref.type === 'ref/prompt') checked = policy.allowsPrompt(server, ref.name) ? ref : undefined;
    else {
      // A template is sent in the canonical form it was checked in.
      const access = policy.resourceAccess(server, ref.uri);
      checked = access.allowed ? { ...ref, uri: access.uri } : undefined;
    }
    const connection = this.o.servers.get(server);
    if (!checked || !connection) return { values: [] };
    try {
      return await connection.catalogs.prompts.complete(checked, request.argument, request.context, { timeoutMs: policy.timeoutFor(server), signal: request.signal });
    } catch {
      return { values: [] };
    }
  }

  /**
   * Follow a resource's changes (`onDidUpdateResource`, which names the canonical URI); false when
   * the role may not read it, its URI is ambiguous, or the server cannot.
   */
  async subscribe(server: string, uri: string): Promise<boolean> {
    const connection = this.o.servers.get(server);
    const access = this.o.policies.current.resourceAccess(server, uri);
    if (!connection || !access.allowed) return false;
    return connection.catalogs.resources.subscribe(access.uri);
  }

  async unsubscribe(server: string, uri: string): Promise<void> {
    const canonical = canonicalUri(uri);
    await this.o.servers.get(server)?.catalogs.resources.unsubscribe(canonical.ok ? canonical.uri : uri);
  }
}
