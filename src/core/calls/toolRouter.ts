import { ErrorCode, McpError, type CallToolResult, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { AuditLog } from '../audit/auditLog';
import type { CallOutcome, ConfirmedBy } from '../audit/auditRecord';
import { redactArguments, summarize } from '../audit/redactArguments';
import { ConnectionState } from '../mcp/connectionState';
import { ServerUnavailableError, errorText, type ServerConnection } from '../mcp/serverConnection';
import type { ConfirmationPolicy } from '../policy/confirmationPolicy';
import type { RolePolicy } from '../policy/rolePolicy';
import type { SessionApprovals } from '../policy/sessionApprovals';
import type { RegistryEntry, ToolRegistry } from '../tools/toolRegistry';
import type { Logger } from '../util/logger';
import { ArgumentValidator } from './argumentValidator';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from './confirmer';
import { convertResult, type ModelPart } from './resultConversion';

export interface ToolCallRequest {
  /** The exposed name the model used. */
  readonly name: string;
  /** Arguments as the model sent them: an object, or a JSON string of one. */
  readonly args?: unknown;
  /** The caller's Stop. */
  readonly signal?: AbortSignal;
}

export interface ToolCallResult {
  readonly name: string;
  readonly server?: string;
  readonly tool?: string;
  readonly outcome: CallOutcome;
  readonly isError: boolean;
  readonly confirmedBy: ConfirmedBy;
  readonly durationMs: number;
  /** The server's content array as returned (empty when the server was not called). */
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  /** What goes back to the model. */
  readonly parts: readonly ModelPart[];
  readonly modelText: string;
}

/** What the router needs from the host; read on every call so settings changes apply at once. */
export interface RouterContext {
  readonly registry: ToolRegistry;
  connection(server: string): ServerConnection | undefined;
  rolePolicy(): RolePolicy;
  confirmationPolicy(): ConfirmationPolicy;
  timeoutMs(server: string): number;
  maxResultChars(): number;
}

export interface ToolRouterOptions {
  readonly context: RouterContext;
  readonly confirmer: Confirmer;
  readonly audit: AuditLog;
  readonly approvals: SessionApprovals;
  readonly logger: Logger;
  /** CLI `--yes`: calls that need confirmation run, recorded as confirmed by "flag". */
  readonly assumeYes?: boolean;
}

/**
 * The one path of every tool call: look up → role check → validate → confirm → `tools/call` with
 * a timeout → convert → audit. Every outcome is a result for the model; nothing throws out.
 */
export class ToolRouter {
  private readonly validator: ArgumentValidator;
  private confirmations: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ToolRouterOptions) {
    this.validator = new ArgumentValidator((tool, error) =>
      options.logger.warn(`input schema of tool "${tool}" cannot be compiled, arguments are not checked: ${error}`),
    );
  }

  async call(request: ToolCallRequest): Promise<ToolCallResult> {
    const started = performance.now();
    const ctx = this.options.context;
    const role = ctx.rolePolicy();
    const entry = ctx.registry.lookup(request.name);
    const base = { name: request.name, started, role: role.roleName };

    // Outside the role is answered exactly like an unknown name.
    if (!entry || !role.allows(entry.server, entry.tool.name)) {
      // Parsed when possible, so the audit's key-based redaction also covers JSON-string arguments.
      const asSent = parseArgs(request.args);
      return this.finish(base, undefined, asSent.ok ? asSent.args : request.args, {
        outcome: 'notFound',
        text: `Tool "${request.name}" is not available. Use only the tools offered in this request.`,
      });
    }

    const parsed = parseArgs(request.args);
    if (!parsed.ok) return this.finish(base, entry, request.args, { outcome: 'invalidArgs', text: invalidArgsText(entry, [parsed.error]) });
    const args = parsed.args;
    const check = this.validator.validate(entry.tool, entry.definitionHash, args);
    if (!check.ok) return this.finish(base, entry, args, { outcome: 'invalidArgs', text: invalidArgsText(entry, check.errors) });

    if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry) });

    // Confirmation: the host's policy decides; annotations are only shown.
    let confirmedBy: ConfirmedBy;
    const server = entry.server;
    const tool = entry.tool.name;
    if (ctx.confirmationPolicy().rule(server, tool) === 'auto') confirmedBy = 'policy';
    else if (this.options.approvals.has(role.roleName, server, tool)) confirmedBy = 'session';
    else if (this.options.assumeYes) confirmedBy = 'flag';
    else {
      const answer = await this.askInTurn(entry, args, role.roleName, request.signal);
      if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry) });
      if (answer === 'deny') {
        return this.finish(base, entry, args, {
          outcome: 'denied',
          text: `The user denied the call to tool "${entry.name}". Do not call it again unless the user asks for it.`,
        });
      }
      if (answer === 'session') this.options.approvals.add(role.roleName, server, tool);
      confirmedBy = answer === 'session' ? 'session' : 'user';
    }

    const connection = ctx.connection(server);
    if (!connection || !ConnectionState.isConnected(connection.state)) {
      const state = connection ? ConnectionState.describe(connection.state) : 'not running';
      return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: server "${server}" is ${state}.`, confirmedBy });
    }

    const timeoutMs = ctx.timeoutMs(server);
    let result: CallToolResult;
    try {
      result = await connection.callTool(tool, args, { timeoutMs, signal: request.signal });
    } catch (e) {
      if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry), confirmedBy });
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
        return this.finish(base, entry, args, {
          outcome: 'timeout',
          text: `Tool "${entry.name}" timed out after ${timeoutMs} ms; the server was told to cancel it. Try something else or ask the user.`,
          confirmedBy,
        });
      }
      let reason = connection.redact(errorText(e));
      if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
        const state = stateOf(connection); // re-read: the close changed it
        reason = `server "${server}" closed the connection during the call` + (state.kind === 'restarting' ? ` (${state.reason}); it is being restarted` : '');
      } else if (e instanceof ServerUnavailableError) {
        reason = e.message;
      }
      return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: ${reason}`, confirmedBy });
    }

    const converted = convertResult(result, ctx.maxResultChars());
    return this.finish(base, entry, args, {
      outcome: result.isError ? 'isError' : 'ok',
      confirmedBy,
      converted,
      content: (result.content ?? []) as ContentBlock[],
      structuredContent: result.structuredContent as Record<string, unknown> | undefined,
      redact: (t) => connection.redact(t),
    });
  }

  /** Confirmations are asked one at a time even when calls run in parallel. */
  private askInTurn(entry: RegistryEntry, args: Record<string, unknown>, role: string | undefined, signal?: AbortSignal) {
    const ask = async () => {
      if (signal?.aborted) return 'deny' as const;
      // A second call of the same tool may have been allowed for the session while this one waited.
      if (this.options.approvals.has(role, entry.server, entry.tool.name)) return 'session' as const;
      try {
        const request: ConfirmationRequest = {
          role,
          name: entry.name,
          server: entry.server,
          tool: entry.tool.name,
          title: entry.tool.title ?? entry.tool.annotations?.title,
          description: entry.tool.description,
          args,
          annotations: entry.tool.annotations,
        };
        return await untilAborted(this.options.confirmer.confirm(request, signal), signal);
      } catch (e) {
        // Failing to ask is never consent.
        this.options.logger.warn(`confirmation for "${entry.name}" failed, treated as denied: ${errorText(e)}`);
        return 'deny' as const;
      }
    };
    const turn = this.confirmations.then(ask, ask);
    this.confirmations = turn.catch(() => undefined);
    return turn;
  }

  private async finish(
    base: { name: string; started: number; role: string | undefined },
    entry: RegistryEntry | undefined,
    args: unknown,
    r: {
      outcome: CallOutcome;
      text?: string;
      confirmedBy?: ConfirmedBy;
      converted?: ReturnType<typeof convertResult>;
      content?: ContentBlock[];
      structuredContent?: Record<string, unknown>;
      redact?: (t: string) => string;
    },
  ): Promise<ToolCallResult> {
    const durationMs = Math.round((performance.now() - base.started) * 10) / 10;
    const parts: readonly ModelPart[] = r.converted ? r.converted.parts : [{ type: 'text', text: r.text ?? '' }];
    const modelText = r.converted ? r.converted.modelText : (r.text ?? '');
    const result: ToolCallResult = {
      name: base.name,
      server: entry?.server,
      tool: entry?.tool.name,
      outcome: r.outcome,
      isError: r.outcome !== 'ok',
      confirmedBy: r.confirmedBy ?? null,
      durationMs,
      content: r.content ?? [],
      structuredContent: r.structuredContent,
      parts,
      modelText,
    };
    const redact = r.redact ?? ((t: string) => t);
    // The record is written before the result is returned.
    await this.options.audit.record({
      kind: 'call',
      ts: new Date().toISOString(),
      role: base.role ?? null,
      server: entry?.server ?? null,
      tool: entry?.tool.name ?? null,
      name: base.name,
      args: redactArguments(args ?? {}),
      outcome: r.outcome,
      isError: r.outcome !== 'ok',
      durationMs,
      confirmedBy: result.confirmedBy,
      result: summarize(redact(modelText)),
      definitionHash: entry?.definitionHash ?? null,
    });
    this.options.logger.info(`call ${base.name} → ${r.outcome} in ${durationMs} ms${result.confirmedBy ? ` (confirmed by ${result.confirmedBy})` : ''}`);
    return result;
  }
}

function parseArgs(raw: unknown): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  let value = raw;
  if (value === undefined || value === null || value === '') return { ok: true, args: {} };
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      return { ok: false, error: `arguments are not valid JSON: ${errorText(e)}` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

function invalidArgsText(entry: RegistryEntry, errors: readonly string[]): string {
  return `Invalid arguments for tool "${entry.name}"; the server was not called:\n${errors.map((e) => `- ${e}`).join('\n')}\nCheck the tool's input schema and try again.`;
}

function cancelledText(entry: RegistryEntry): string {
  return `The call to tool "${entry.name}" was cancelled by the user.`;
}

/** A Stop must end the call even when the confirmer does not honour the signal (a modal, a prompt). */
function untilAborted(answer: Promise<ConfirmationAnswer>, signal?: AbortSignal): Promise<ConfirmationAnswer> {
  if (!signal) return answer;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<ConfirmationAnswer>((resolve) => {
    onAbort = () => resolve('deny');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

function stateOf(connection: ServerConnection): ConnectionState {
  return connection.state;
}
