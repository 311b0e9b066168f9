import type { Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/client';

/**
 * A transport that hands every failure of the transport it wraps to `explain` before it reaches
 * the SDK Client, so a refused request arrives as the host's SignInRequiredError (with the issuer
 * and what the server asked for) or as a plain error, whatever the SDK's auth code threw. Messages,
 * callbacks, the protocol versions and the per-request-stream flag pass straight through.
 */
export class SignInAwareTransport implements Transport {
  constructor(
    private readonly inner: Transport,
    private readonly explain: (error: unknown) => Promise<unknown>,
  ) {}

  get onclose(): (() => void) | undefined {
    return this.inner.onclose;
  }
  set onclose(handler: (() => void) | undefined) {
    this.inner.onclose = handler;
  }
  get onerror(): ((error: Error) => void) | undefined {
    return this.inner.onerror;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.inner.onerror = handler;
  }
  get onmessage(): (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined {
    return this.inner.onmessage;
  }
  set onmessage(handler: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined) {
    this.inner.onmessage = handler;
  }
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  /** 2026-07-28 over HTTP: closing a call's own response stream is how the SDK cancels it. */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  async start(): Promise<void> {
    try {
      await this.inner.start();
    } catch (e) {
      throw await this.explain(e);
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } catch (e) {
      throw await this.explain(e);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
