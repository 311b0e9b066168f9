import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { AuditLog } from '../audit/auditLog';
import type { ContextOutcome, ReadPurpose } from '../audit/auditRecord';
import { summarize } from '../audit/redactArguments';
import type { ServerFleet } from '../mcp/serverFleet';
import type { ActivePolicies } from '../policy/activePolicies';
import type { Logger } from '../util/logger';
import { redactContents } from './redactContents';
import { classifyFailure, elapsed, roleText, unavailable, type ContextFailure } from './contextFailure';
import { isoNow } from '../util/isoNow';
import { auditedActor, fromActor, type CallActor } from '../audit/callActor';
import { resourceRefusal } from '../apps/actorAccess';

export interface ResourceReadRequest {
  readonly server: string;
  readonly uri: string;
  /** Default "view". */
  readonly purpose?: ReadPurpose;
  readonly signal?: AbortSignal;
  /** Who asks when not a person or the model: an app's view reads only its own server's resources (audited with it). */
  readonly actor?: CallActor;
}

export interface ResourceReadResult {
  readonly server: string;
  readonly uri: string;
  readonly outcome: ContextOutcome;
  /** What the server returned (empty unless `ok`). */
  readonly contents: ReadResourceResult['contents'];
  /** Why nothing came back, for a person or a model; a summary when `ok`. */
  readonly text: string;
  readonly durationMs: number;
}

export interface ReaderOptions {
  readonly servers: ServerFleet;
  /** Read on every request, so a role switch applies at once. */
  readonly policies: ActivePolicies;
  readonly audit: AuditLog;
  readonly logger: Logger;
}

/**
 * The one path of every resource read (tree, chat attachment, CLI): the URI's canonical form
 * (canonicalUri.ts) → role check on it → connected server → `resources/read` of that canonical URI
 * with the server's timeout → audit. A read the role may not make, or of a URI whose canonical form
 * is ambiguous, never reaches the server and is recorded as `notAllowed`. Nothing throws out.
 */
export class ResourceReader {
  constructor(private readonly o: ReaderOptions) {}

  async read(request: ResourceReadRequest): Promise<ResourceReadResult> {
    const started = performance.now();
    const policy = this.o.policies.current;
    const { server } = request;
    const access = policy.resourceAccess(server, request.uri);
    // What was checked is what is sent: the canonical URI (the one asked for when it has none).
    const uri = access.allowed || !access.ambiguous ? access.uri : request.uri;
    const finish = (outcome: ContextOutcome, text: string, contents: ReadResourceResult['contents'] = []) =>
      this.finish(request, uri, policy.roleName, started, { outcome, text, contents });

    if (!access.allowed && access.ambiguous) return finish('notAllowed', `refused without asking server "${server}": ${access.reason}`);
    const refused = resourceRefusal(request.actor, server);
    if (refused) return finish('notAllowed', `refused without asking server "${server}": ${refused}`);
    if (!access.allowed) {
      return finish('notAllowed', `resource "${uri}" of server "${server}" is not available to ${roleText(policy.roleName)}`);
    }
    const connection = this.o.servers.get(server);
    const down = unavailable(server, connection);
    if (down) return finish(down.outcome, down.text);
    if (!connection!.catalogs.resources.supported) return finish('notFound', `server "${server}" offers no resources`);
    const timeoutMs = policy.timeoutFor(server);
    try {
      const result = await connection!.catalogs.resources.read(uri, { timeoutMs, signal: request.signal });
      return finish('ok', describeContents(result.contents), redactContents(result.contents, (t) => connection!.redact(t)));
    } catch (e) {
      const f: ContextFailure = classifyFailure(e, request.signal, timeoutMs, (t) => connection!.redact(t));
      return finish(f.outcome, f.text);
    }
  }

  private async finish(
    request: ResourceReadRequest,
    uri: string,
    role: string | undefined,
    started: number,
    r: { outcome: ContextOutcome; text: string; contents: ReadResourceResult['contents'] },
  ): Promise<ResourceReadResult> {
    const durationMs = elapsed(started);
    const purpose = request.purpose ?? 'view';
    await this.o.audit.record({
      kind: 'resource',
      ts: isoNow(),
      role: role ?? null,
      server: request.server,
      uri,
      ...(uri !== request.uri ? { requestedUri: request.uri } : {}),
      purpose,
      outcome: r.outcome,
      durationMs,
      result: summarize(r.text),
      ...auditedActor(request.actor),
    });
    this.o.logger.info(`read ${request.server}/${uri} (${purpose}${fromActor(request.actor)}) → ${r.outcome} in ${durationMs} ms${r.outcome === 'ok' ? '' : `: ${r.text}`}`);
    return { server: request.server, uri: request.uri, outcome: r.outcome, contents: r.contents, text: r.text, durationMs };
  }
}

/** "text/markdown 1.2 KB; image/png 3.0 KB (binary)". */
export function describeContents(contents: ReadResourceResult['contents']): string {
  if (contents.length === 0) return 'no contents';
  return contents
    .map((c) => {
      const binary = 'blob' in c && typeof c.blob === 'string';
      const bytes = binary ? base64Bytes(c.blob as string) : Buffer.byteLength(String((c as { text?: string }).text ?? ''), 'utf8');
      return `${c.mimeType ?? 'unknown type'} ${formatSize(bytes)}${binary ? ' (binary)' : ''}`;
    })
    .join('; ');
}

export function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Decoded size of base64 text, without decoding it. */
export function base64Bytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
}
