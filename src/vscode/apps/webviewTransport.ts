import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/core';
import { z } from 'zod';
import { jsonPreview } from '../../core/util/text';

/** What the extension and the webview's relay script (media/apps/appView.js) send each other. */
export type ViewMessage =
  /** The relay is up: the editor's theme as CSS variables, and the size it has. */
  | { readonly type: 'ready'; readonly theme: ViewTheme; readonly width: number; readonly height: number }
  /** The editor's theme changed (the webview's body class and variables). */
  | { readonly type: 'theme'; readonly theme: ViewTheme }
  /** The panel was resized. */
  | { readonly type: 'resize'; readonly width: number; readonly height: number }
  /** A JSON-RPC message from the app's document. */
  | { readonly type: 'rpc'; readonly message: JSONRPCMessage };

export interface ViewTheme {
  readonly kind: 'light' | 'dark';
  /** `--vscode-*` variables as the webview computed them. */
  readonly variables: Readonly<Record<string, string>>;
}

const size = z.number().finite().nonnegative();
const themeSchema = z.object({
  kind: z.enum(['light', 'dark']),
  // What the relay read from the page's style; only the names themeContext maps are used.
  variables: z.record(z.string(), z.string()),
});
const viewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), theme: themeSchema, width: size, height: size }),
  z.object({ type: z.literal('theme'), theme: themeSchema }),
  z.object({ type: z.literal('resize'), width: size, height: size }),
  z.object({ type: z.literal('rpc'), message: z.unknown() }),
]);

/** What the extension sends the relay. */
export type HostMessage =
  | { readonly type: 'load'; readonly html: string; readonly allow: string; readonly prefersBorder: boolean }
  | { readonly type: 'rpc'; readonly message: JSONRPCMessage }
  | { readonly type: 'size'; readonly height?: number; readonly width?: number };

/** The webview side the transport needs (a `vscode.Webview`). */
export interface ViewPort {
  postMessage(message: HostMessage): Thenable<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => void): { dispose(): void };
}

/** Where a message the view sent cannot be used goes: a log line, with what was wrong and where. */
export type BadMessageReporter = (problem: string) => void;

/**
 * The MCP `Transport` of an app's AppBridge over a webview: JSON-RPC from the app's document
 * arrives through the relay script as `{ type: "rpc", message }` and is validated (zod) before the
 * bridge sees it; everything else the relay says (ready, theme, resize) goes to `onViewMessage`.
 * A message that fails validation is logged with the reason; when it is a request (it has an `id`),
 * the view is answered with JSON-RPC error -32600 saying what was wrong, so nothing waits forever.
 */
export class WebviewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private subscription?: { dispose(): void };
  private closed = false;

  constructor(
    private readonly port: ViewPort,
    private readonly onViewMessage: (message: Exclude<ViewMessage, { type: 'rpc' }>) => void,
    private readonly report: BadMessageReporter,
  ) {}

  async start(): Promise<void> {
    this.subscription = this.port.onDidReceiveMessage((raw) => this.receive(raw));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the app view is closed');
    await this.port.postMessage({ type: 'rpc', message });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.dispose();
    this.onclose?.();
  }

  /** One message from the webview: validated, then to the bridge or to the panel. */
  receive(raw: unknown): void {
    const envelope = viewMessageSchema.safeParse(raw);
    if (!envelope.success) {
      this.report(`a message from the view was ignored: ${issuesText(envelope.error)} (message: ${jsonPreview(raw)})`);
      return;
    }
    const m = envelope.data;
    if (m.type !== 'rpc') {
      this.onViewMessage(m);
      return;
    }
    const rpc = JSONRPCMessageSchema.safeParse(m.message);
    if (rpc.success) {
      this.onmessage?.(rpc.data);
      return;
    }
    const why = issuesText(kindSchema(m.message)?.safeParse(m.message).error ?? rpc.error);
    this.report(`a JSON-RPC message from the view was refused: ${why} (message: ${jsonPreview(m.message)})`);
    const id = requestId(m.message);
    if (id !== undefined) {
      void this.port.postMessage({ type: 'rpc', message: { jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid request: ${why}` } } });
    }
  }
}

/**
 * The schema of the kind of message it looks like (a request has `method` and `id`, a notification
 * `method` only, a response `result` or `error`), so a refusal names the field that is wrong rather
 * than "no member of the union matched".
 */
function kindSchema(value: unknown) {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ('method' in v) return 'id' in v ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  if ('error' in v) return JSONRPCErrorResponseSchema;
  if ('result' in v) return JSONRPCResultResponseSchema;
  return undefined;
}

/** zod's issues as one line: `params.name: expected string`. */
function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}

/** The id of something that looks like a request, so a refusal can be answered. */
function requestId(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, method } = value as { id?: unknown; method?: unknown };
  if (method === undefined) return undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
