/**
 * The settings of requests a server sends to the host (`mcpHost.elicitation`, `mcpHost.sampling`),
 * after validation. Server names may be globs (`*`, `orders-*`).
 */
export interface ServerRequestSettings {
  /** Servers whose requests of this kind are put to the user; the others are refused at once. */
  readonly servers: readonly string[];
  /** Per role: replaces `servers` while that role is active. */
  readonly roles: Readonly<Record<string, readonly string[]>>;
}

export interface SamplingSettings extends ServerRequestSettings {
  /** The model that answers, as a model id, family or `vendor/family`; unset: the chat's model. */
  readonly model?: string;
}

/** Elicitation is allowed for every server by default (the user always answers); sampling for none. */
export const SERVER_REQUEST_DEFAULTS = {
  elicitation: { servers: ['*'], roles: {} } as ServerRequestSettings,
  sampling: { servers: [], roles: {} } as SamplingSettings,
} as const;
