import type { Client, Tool } from '@modelcontextprotocol/client';
import type { Disposable } from '../util/event';
import { sendToolCall, type CallClocks, type CallContext, type ToolCallOptions } from './call/toolCall';
import { ListenSubscription, type ListenOptions } from './listenSubscription';
import type { ServerTransport } from './serverTransport';
import { LivenessWatch } from './socketWatch';
import { unreachableError } from './transportErrorText';

/**
 * One established connection of a server: its client and transport, and for a remote server a
 * watch that notices it going away, and for a 2026-07-28 server its `subscriptions/listen` stream.
 * It ends once (closed by the host, or lost: `onLost` with the reason), and is closed as one:
 * subscription, client, transport (a stdio server's whole process group) and watch.
 */
export class LiveConnection {
  /** Closed or lost: a "connection closed" rejection of its calls is ours, not the server's -32000. */
  private ended = false;
  private closing?: Promise<void>;
  private readonly liveness?: Disposable;
  private readonly context: CallContext;
  private subscription?: ListenSubscription;

  constructor(
    readonly client: Client,
    readonly transport: ServerTransport,
    url: string | undefined,
    private readonly onLost: (reason: string) => void,
    /** The server's name and the clocks of its calls (ServerCalls); without them a CallDeadline is a call's clock. */
    calls?: { readonly server: string; readonly clocks?: CallClocks; readonly toolsStale?: () => void },
  ) {
    if (url) this.liveness = new LivenessWatch(url, (error) => this.lost(unreachableError(url, error).message));
    this.context = {
      closed: () => this.ended,
      url,
      server: calls?.server,
      clocks: calls?.clocks,
      unreachable: (reason) => this.lost(reason),
      toolsStale: calls?.toolsStale,
      direct: transport.direct,
    };
  }

  /** `tools/call` of `name` (defined as `tool`) on this connection (see sendToolCall); a server that cannot be reached is lost. */
  callTool(tool: Tool | undefined, name: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<Record<string, unknown>> {
    return sendToolCall(this.client, tool, name, args, options, this.context);
  }

  /** Open the `subscriptions/listen` stream (a modern server that declares something to listen for); resolves once it is open or has failed. */
  listen(o: ListenOptions): Promise<void> {
    if (this.ended || this.subscription) return Promise.resolve();
    this.subscription = new ListenSubscription(this.client, o);
    return this.subscription.start();
  }

  /** The followed resources changed: the stream's filter follows. */
  relisten(): Promise<void> {
    return this.subscription?.refilter() ?? Promise.resolve();
  }

  /** The transport closed by itself (the process exited, the stream ended). */
  lost(reason?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onLost(reason ?? '');
  }

  /** Close client, transport and watch; every caller gets the same promise. */
  close(): Promise<void> {
    this.ended = true;
    this.liveness?.dispose();
    return (this.closing ??= (async () => {
      await this.subscription?.close();
      await this.client.close().catch(() => undefined);
      await this.transport.transport.close().catch(() => undefined);
    })());
  }
}
