import type { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ServerSettings } from '../settings/hostSettings';

/**
 * Something the host adds to every MCP client it opens (answering elicitation, sampling or roots
 * requests; handling more notifications): the capabilities it declares in `initialize` and the
 * handlers behind them. Each feature decides through the host's policy and writes the audit.
 */
export interface ClientFeature {
  readonly capabilities: ClientCapabilities;
  /** Whether it is declared to (and installed on) `server` at all; default: yes. */
  declares?(server: ServerSettings): boolean;
  /** Register handlers on a new client for `server`, before it connects. */
  install(client: Client, server: ServerSettings): void;
  /** Resolves when what the server asked during its start has been answered; the host calls no tool before. */
  settled?(client: Client): Promise<void>;
}

/** The features declared to `server`. */
export function featuresFor(features: readonly ClientFeature[], server: ServerSettings): ClientFeature[] {
  return features.filter((f) => f.declares?.(server) ?? true);
}

/** The capabilities of several features, merged (a later feature's keys extend an earlier one's). */
export function mergeCapabilities(features: readonly ClientFeature[]): ClientCapabilities {
  const out: Record<string, unknown> = {};
  for (const f of features) {
    for (const [key, value] of Object.entries(f.capabilities)) {
      const prev = out[key];
      out[key] = prev && typeof prev === 'object' && value && typeof value === 'object' ? { ...prev, ...value } : value;
    }
  }
  return out as ClientCapabilities;
}
