import type { Implementation } from '@modelcontextprotocol/client';
import type { SecretRedactor } from '../audit/secretRedactor';
import type { ServerSettings } from '../settings/hostSettings';
import type { ResolvedServer } from '../settings/resolveServerSettings';
import type { ServerCalls } from './call/serverCalls';
import type { Logger } from '../util/logger';
import type { ClientFeature } from './clientFeature';
import type { BackoffPolicy } from './restartBackoff';
import type { LogLevelSource } from './serverLogLevel';
import type { TransportFactory } from './serverTransport';
import type { EraVerdictStore } from './eraVerdicts';
import type { ToolListStore } from './toolListStore';

export interface ServerConnectionOptions {
  /** Settings as configured: variables are resolved on every start. */
  readonly settings: ServerSettings;
  readonly resolve: (settings: ServerSettings) => Promise<ResolvedServer>;
  readonly transports: TransportFactory;
  readonly logger: Logger;
  readonly clientInfo: Implementation;
  /** Capabilities and handlers added to every client (elicitation, sampling, roots, ...). */
  readonly features?: readonly ClientFeature[];
  /** Tool calls in flight, with timeouts that stop while the user is asked on the server's behalf. */
  readonly calls?: ServerCalls;
  readonly backoff?: BackoffPolicy;
  /** A connection that stays up this long resets the count of consecutive failures. */
  readonly stableAfterMs?: number;
  /** `logging/setLevel` follows it (the output channel's level, the CLI's --verbose). */
  readonly logLevel?: LogLevelSource;
  /** Quiet time that coalesces a burst of list_changed notifications into one refresh. */
  readonly refreshDebounceMs?: number;
  /** The host's one redaction point (shared by every server); a connection of its own otherwise. */
  readonly redactor?: SecretRedactor;
  /** `mcpHost.maxMessageBytes` as of now (a server's own `maxMessageBytes` wins). */
  readonly maxMessageBytes?: () => number;
  /** Where the era found for `protocol: auto` is kept per server identity; without it every start probes. */
  readonly eras?: EraVerdictStore;
  /** Whole tool lists kept across processes (the CLI): a one-shot call uses a fresh one instead of listing. */
  readonly toolLists?: ToolListStore;
}
