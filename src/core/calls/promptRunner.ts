import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { ContextOutcome } from '../audit/auditRecord';
import { redactArguments, summarize } from '../audit/redactArguments';
import { classifyFailure, elapsed, roleText, unavailable } from './contextFailure';
import { redactMessages } from './redactContents';
import type { ReaderOptions } from './resourceReader';
import { isoNow } from '../util/isoNow';
import { auditedActor, fromActor, type CallActor } from '../audit/callActor';

export interface PromptRequest {
  readonly server: string;
  readonly name: string;
  readonly args?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Who asks when not a person or the model (a gateway client): recorded in the audit. */
  readonly actor?: CallActor;
}

export interface PromptResult {
  readonly server: string;
  readonly name: string;
  readonly outcome: ContextOutcome;
  /** The prompt's messages (empty unless `ok`). */
  readonly messages: GetPromptResult['messages'];
  readonly description?: string;
  /** Why nothing came back; a summary when `ok`. */
  readonly text: string;
  readonly durationMs: number;
}

/**
 * The one path of every prompt use (`@mcp /prompt`, the tree's Use in Chat, CLI): role check →
 * the server lists it → required arguments present → `prompts/get` → audit (arguments redacted like
 * tool arguments). Nothing throws out.
 */
export class PromptRunner {
  constructor(private readonly o: ReaderOptions) {}

  async get(request: PromptRequest): Promise<PromptResult> {
    const started = performance.now();
    const policy = this.o.policies.current;
    const { server, name } = request;
    const args = { ...(request.args ?? {}) };
    const finish = (outcome: ContextOutcome, text: string, result?: GetPromptResult) =>
      this.finish(request, args, policy.roleName, started, { outcome, text, result });

    if (!policy.allowsPrompt(server, name)) return finish('notAllowed', `prompt "${name}" of server "${server}" is not available to ${roleText(policy.roleName)}`);
    const connection = this.o.servers.get(server);
    const down = unavailable(server, connection);
    if (down) return finish(down.outcome, down.text);
    const catalog = connection!.catalogs.prompts;
    const listed = catalog.supported ? catalog.prompts.find((p) => p.name === name) : undefined;
    if (!listed) return finish('notFound', `server "${server}" lists no prompt "${name}"`);
    const missing = (listed.arguments ?? []).filter((a) => a.required && !args[a.name]).map((a) => a.name);
    if (missing.length) return finish('invalidArgs', `prompt "${name}" needs the argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    const timeoutMs = policy.timeoutFor(server);
    try {
      const result = await catalog.get(name, args, { timeoutMs, signal: request.signal });
      const messages = redactMessages(result.messages, (t) => connection!.redact(t));
      return finish('ok', `${messages.length} message${messages.length === 1 ? '' : 's'}`, { ...result, messages });
    } catch (e) {
      const f = classifyFailure(e, request.signal, timeoutMs, (t) => connection!.redact(t));
      return finish(f.outcome, f.text);
    }
  }

  private async finish(
    request: PromptRequest,
    args: Record<string, string>,
    role: string | undefined,
    started: number,
    r: { outcome: ContextOutcome; text: string; result?: GetPromptResult },
  ): Promise<PromptResult> {
    const durationMs = elapsed(started);
    await this.o.audit.record({
      kind: 'prompt',
      ts: isoNow(),
      role: role ?? null,
      server: request.server,
      prompt: request.name,
      args: redactArguments(args),
      outcome: r.outcome,
      durationMs,
      result: summarize(r.text),
      ...auditedActor(request.actor),
    });
    this.o.logger.info(`prompt ${request.server}/${request.name}${fromActor(request.actor)} → ${r.outcome} in ${durationMs} ms${r.outcome === 'ok' ? '' : `: ${r.text}`}`);
    return {
      server: request.server,
      name: request.name,
      outcome: r.outcome,
      messages: r.result?.messages ?? [],
      ...(r.result?.description ? { description: r.result.description } : {}),
      text: r.text,
      durationMs,
    };
  }
}
