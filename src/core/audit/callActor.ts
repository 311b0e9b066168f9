/**
 * Who asked for a call. Every call goes through the same router whoever asks; the actor is
 * recorded in the audit and shown in confirmations, and decides which extra limits apply
 * (an app may call only its own server's tools that are visible to apps).
 */
export type CallActor =
  /** The model of `@mcp` or of a CLI session (the default when a request names no actor). */
  | { readonly kind: 'model' }
  /** An MCP App's view: the server that served it, its `ui://` resource and the tool whose view it is. */
  | { readonly kind: 'app'; readonly server: string; readonly view: string; readonly tool?: string }
  /** An MCP client connected to the host's gateway: its `clientInfo` and the transport it came over. */
  | { readonly kind: 'upstream'; readonly client: string; readonly version?: string; readonly transport: 'stdio' | 'http' };

export const MODEL_ACTOR: CallActor = { kind: 'model' };

/** One line for logs and dialogs, e.g. `app pdf ui://pdf/viewer.html` or `upstream claude-code 2.1 (http)`. */
export function actorText(actor: CallActor | undefined): string {
  if (!actor || actor.kind === 'model') return 'model';
  if (actor.kind === 'app') return `app ${actor.server} ${actor.view}`;
  return `upstream ${actor.client}${actor.version ? ` ${actor.version}` : ''} (${actor.transport})`;
}

/** `{ actor }` for an audit record when someone other than the model asked; nothing for the model. */
export function auditedActor(actor: CallActor | undefined): { readonly actor?: CallActor } {
  return actor && actor.kind !== 'model' ? { actor } : {};
}

/** ` from app pdf ui://…` for a log line; empty for the model. */
export function fromActor(actor: CallActor | undefined): string {
  return actor && actor.kind !== 'model' ? ` from ${actorText(actor)}` : '';
}
