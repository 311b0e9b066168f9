import type { ContentBlock } from '@modelcontextprotocol/client';
import type { AuditLog } from '../audit/auditLog';
import type { CallOutcome, ConfirmedBy } from '../audit/auditRecord';
import { redactArguments, summarize } from '../audit/redactArguments';
import type { SecretRedactor } from '../audit/secretRedactor';
import { ConnectionState } from '../mcp/connectionState';
import { ServerUnavailableError } from '../mcp/serverConnection';
import type { ServerFleet } from '../mcp/serverFleet';
import { CallTimeoutError, ConnectionLostError } from '../mcp/call/toolCall';
import type { Quarantine } from '../pinning/pinningPolicy';
import type { ActivePolicies } from '../policy/activePolicies';
import type { RuleHit } from '../policy/argumentRules';
import type { RegistryEntry, ToolRegistry } from '../tools/toolRegistry';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import type { ProgressListener } from '../mcp/callProgress';
import { ArgumentValidator } from './argumentValidator';
import { callProgressReport, timeoutText } from './callProgressReport';
import { elapsed } from './contextFailure';
import { parseCallArguments } from './callArguments';
import { ConfirmationQueue } from './confirmationQueue';
import type { Confirmer } from './confirmer';
import { OutputSchemaValidator } from './outputSchemaValidator';
import { readCallResult } from './readCallResult';
import { convertResult, type ModelPart } from './resultConversion';
import { isoNow } from '../util/isoNow';
import { newTraceIds, type TraceIds } from '../util/traceContext';
import { auditedActor, fromActor, type CallActor } from '../audit/callActor';
import { toolAccess } from '../apps/actorAccess';

export interface ToolCallRequest {
  /** The exposed name the model used. */
  readonly name: string;
  /** Arguments as the model sent them: an object, or a JSON string of one. */
  readonly args?: unknown;
  /** The caller's Stop. */
  readonly signal?: AbortSignal;
  /** Progress and task status of the call, as the server reports them (also logged). */
  readonly onProgress?: ProgressListener;
  /** Who asks (recorded in the audit, shown when confirming); the model when absent. */
  readonly actor?: CallActor;
  /**
   * Who answers this call's confirmation instead of the host's confirmer (e.g. the gateway asks
   * its upstream client through elicitation). Same contract: failing to ask is a denial.
   */
  readonly confirmer?: Confirmer;
}

export interface ToolCallResult {
  readonly name: string;
  readonly server?: string;
  readonly tool?: string;
  readonly outcome: CallOutcome;
  readonly isError: boolean;
  readonly confirmedBy: ConfirmedBy;
  /** From the request to the result; `serverMs` is the `tools/call` alone, `confirmWaitMs` the wait for a person (each absent when it did not happen). */
  readonly durationMs: number;
  readonly serverMs?: number;
  readonly confirmWaitMs?: number;
  /** The server's content array as returned (empty when the server was not called). */
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  /** The result's `_meta` as returned (redacted), for an MCP App's view; never sent to the model. */
  readonly meta?: Record<string, unknown>;
  /** What goes back to the model. */
  readonly parts: readonly ModelPart[];
  readonly modelText: string;
  /** The argument rule that decided the call (denied, asked, or allowed it), if any. */
  readonly rule?: RuleHit;
}

export interface ToolRouterOptions {
  readonly registry: ToolRegistry;
  readonly servers: ServerFleet;
  /** Read on every call, so a settings or role change applies at once. */
  readonly policies: ActivePolicies;
  readonly confirmer: Confirmer;
  readonly audit: AuditLog;
  readonly logger: Logger;
  /** Tools whose definition is not the reviewed one (mcpHost.pinning); none when absent. */
  readonly pins?: { quarantine(server: string, tool: string): Quarantine | undefined };
  /** Read on every call: OpenTelemetry export is on, so each call gets span ids (audited, sent to the server as `traceparent`). */
  readonly tracing?: () => boolean;
}

/** Base64 payloads of content blocks: no secret is looked for in them. */
const PAYLOAD_KEYS: ReadonlySet<string> = new Set(['data', 'blob']);

/**
 * The one path of every tool call: look up → role check → quarantine → validate → confirm →
 * `tools/call` with a timeout → read part by part → check structured output → convert → redact →
 * audit. Every outcome is a result for the model; nothing throws out.
 */
export class ToolRouter {
  private readonly validator: ArgumentValidator;
  private readonly outputs = new OutputSchemaValidator();
  private readonly confirmations: ConfirmationQueue;
  private readonly redactor: SecretRedactor;

  constructor(private readonly options: ToolRouterOptions) {
    this.redactor = options.servers.redactor;
    this.validator = new ArgumentValidator((tool, error) =>
      options.logger.warn(`input schema of tool "${tool}" cannot be compiled, arguments are not checked: ${error}`),
    );
    this.confirmations = new ConfirmationQueue(options.confirmer, options.policies.approvals, options.logger);
  }

  async call(request: ToolCallRequest): Promise<ToolCallResult> {
    const started = performance.now();
    const { registry, servers, policies } = this.options;
    const policy = policies.current;
    const entry = registry.lookup(request.name);
    const base: CallBase = { name: request.name, started, role: policy.roleName, times: {}, actor: request.actor, ...(this.options.tracing?.() ? { trace: newTraceIds() } : {}) };

    // Outside the role, or not for this caller (an app-only tool to a model: toolAccess), is answered exactly like an unknown name.
    const access = entry && policy.allows(entry.server, entry.tool.name) ? toolAccess(request.actor, entry.server, entry.tool) : undefined;
    if (!entry || !access || (!access.allowed && access.hidden)) {
      return this.finish(base, undefined, asSent(request.args), {
        outcome: 'notFound',
        text: `Tool "${request.name}" is not available. Use only the tools offered in this request.`,
      });
    }

    // A view reaching past its own server's app tools is refused; its role can never be widened.
    if (!access.allowed) {
      return this.finish(base, entry, asSent(request.args), {
        outcome: 'denied',
        text: `The call to tool "${request.name}" was refused by the host: ${access.reason}. The server was not called.`,
      });
    }

    // A definition nobody reviewed is never called; the answer says why, never what the definition says now.
    const quarantine = this.options.pins?.quarantine(entry.server, entry.tool.name);
    if (quarantine) {
      return this.finish(base, entry, asSent(request.args), {
        outcome: 'quarantined',
        text: `Tool "${request.name}" is quarantined and was not called: ${quarantine.message}. It stays unavailable until a person reviews it; do not call it again.`,
      });
    }

    const parsed = parseCallArguments(request.args);
    if (!parsed.ok) return this.finish(base, entry, request.args, { outcome: 'invalidArgs', text: invalidArgsText(entry, [parsed.error]) });
    // A server that echoes a `token` argument must not hand it back: from now on it is masked.
    this.redactor.noteArguments(parsed.args);
    const check = this.validator.validateCall(entry.tool, entry.definitionHash, parsed.args);
    if (!check.ok) return this.finish(base, entry, parsed.args, { outcome: 'invalidArgs', text: invalidArgsText(entry, check.errors) });
    const args = check.args;

    if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry) });

    // Confirmation: the host's policy decides; annotations are only shown.
    let confirmedBy: ConfirmedBy;
    const server = entry.server;
    const tool = entry.tool.name;
    const approvals = policies.approvals;
    // Argument rules (mcpHost.rules, the role's rules): deny > confirm > allow > autoApprove/confirm.
    const ruling = policy.argumentRules.judge(server, tool, args);
    base.rule = ruling.rule;
    if (ruling.action === 'deny') return this.finish(base, entry, args, { outcome: 'denied', text: ruleDeniedText(entry, ruling.rule!) });
    const ruleAsks = ruling.action === 'confirm'; // asks every time: no session approval, no autoApprove
    if (ruling.action === 'allow' || (!ruleAsks && policy.rule(server, tool) === 'auto')) confirmedBy = 'policy';
    else if (!ruleAsks && approvals.has(policy.roleName, server, tool)) confirmedBy = 'session';
    else if (policy.assumeYes) confirmedBy = 'flag';
    else {
      const asked = performance.now();
      const answer = await this.confirmations.ask(entry, args, policy.roleName, request.signal, ruleAsks ? ruling.rule : undefined, request);
      base.times.confirmWaitMs = elapsed(asked);
      if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry) });
      if (answer === 'deny') {
        return this.finish(base, entry, args, {
          outcome: 'denied',
          text: `The user denied the call to tool "${entry.name}"${ruleAsks ? ` (asked because of ${ruleLabel(ruling.rule!)})` : ''}. Do not call it again unless the user asks for it.`,
        });
      }
      const forSession = answer === 'session' && !ruleAsks;
      if (forSession) approvals.add(policy.roleName, server, tool);
      confirmedBy = forSession ? 'session' : 'user';
    }

    const connection = servers.get(server);
    if (!connection || !ConnectionState.isConnected(connection.state)) {
      const state = connection ? ConnectionState.describe(connection.state) : 'not running';
      return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: server "${server}" is ${state}.`, confirmedBy });
    }

    const timeoutMs = policy.timeoutFor(server);
    let raw: Record<string, unknown>;
    try {
      const onProgress = callProgressReport(this.options.logger, entry.name, (t) => this.redactor.text(t), request.onProgress);
      const progress = policy.progressFor(server);
      const called = performance.now();
      raw = await connection
        .callTool(tool, args, {
          timeoutMs,
          signal: request.signal,
          onProgress,
          resetTimeoutOnProgress: progress.resetTimeoutOnProgress,
          maxTotalTimeoutMs: progress.maxTotalTimeoutMs,
          ...(base.trace ? { trace: base.trace } : {}),
        })
        .finally(() => (base.times.serverMs = elapsed(called)));
    } catch (e) {
      if (request.signal?.aborted) return this.finish(base, entry, args, { outcome: 'cancelled', text: cancelledText(entry), confirmedBy });
      if (e instanceof CallTimeoutError) {
        return this.finish(base, entry, args, { outcome: 'timeout', text: timeoutText(entry.name, e), confirmedBy });
      }
      let reason = errorText(e);
      if (e instanceof ConnectionLostError) {
        const restart = ConnectionState.restartReason(connection.state); // re-read: the close changed it
        reason = `server "${server}" closed the connection during the call` + (restart ? ` (${restart}); it is being restarted` : '');
      } else if (e instanceof ServerUnavailableError) {
        reason = e.message;
      }
      return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: ${reason}`, confirmedBy });
    }

    const read = readCallResult(raw);
    if (!read.ok) return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: ${read.error}`, confirmedBy });
    const result = read.result;
    for (const why of result.dropped) this.options.logger.warn(`call ${entry.name}: dropped part of the result: ${why}`);
    const content = this.redactor.deep(result.content, PAYLOAD_KEYS);
    const structuredContent = this.redactor.deep(result.structuredContent);
    const output = this.outputs.check(entry.tool, entry.definitionHash, structuredContent, result.isError);
    if (!output.ok) {
      return this.finish(base, entry, args, { outcome: 'error', text: `Tool "${entry.name}" failed: ${output.error}`, confirmedBy, content, structuredContent });
    }
    return this.finish(base, entry, args, {
      outcome: result.isError ? 'isError' : 'ok',
      confirmedBy,
      converted: convertResult({ content, structuredContent }, policy.maxResultChars, result.dropped),
      content,
      structuredContent,
      meta: this.redactor.deep(result.meta),
    });
  }

  private finish(
    base: CallBase,
    entry: RegistryEntry | undefined,
    args: unknown,
    r: {
      outcome: CallOutcome;
      text?: string;
      confirmedBy?: ConfirmedBy;
      converted?: ReturnType<typeof convertResult>;
      content?: ContentBlock[];
      structuredContent?: Record<string, unknown>;
      meta?: Record<string, unknown>;
    },
  ): ToolCallResult {
    const durationMs = elapsed(base.started);
    // The one redaction point of what a call gives back: every text a model or a person sees.
    const redactor = this.redactor;
    const converted = r.converted?.parts;
    const parts: readonly ModelPart[] = !converted
      ? [{ type: 'text', text: redactor.text(r.text ?? '') }]
      : redactor.active
        ? converted.map((p) => (p.type === 'text' ? { ...p, text: redactor.text(p.text) } : p))
        : converted;
    const modelText = redactor.text(r.converted ? r.converted.modelText : (r.text ?? ''));
    const result: ToolCallResult = {
      name: base.name,
      server: entry?.server,
      tool: entry?.tool.name,
      outcome: r.outcome,
      isError: r.outcome !== 'ok',
      confirmedBy: r.confirmedBy ?? null,
      durationMs,
      ...base.times,
      content: r.content ?? [],
      structuredContent: r.structuredContent,
      ...(r.meta ? { meta: r.meta } : {}),
      parts,
      modelText,
      ...(base.rule ? { rule: base.rule } : {}),
    };
    // The record is taken, in order, before the result is returned; the file sink writes it at the
    // end of this turn of the event loop with the others of the turn (JsonlFileSink.write).
    void this.options.audit.record({
      kind: 'call',
      ts: isoNow(),
      role: base.role ?? null,
      server: entry?.server ?? null,
      tool: entry?.tool.name ?? null,
      name: base.name,
      args: redactor.deep(redactArguments(args ?? {})),
      outcome: r.outcome,
      isError: r.outcome !== 'ok',
      durationMs,
      ...base.times,
      confirmedBy: result.confirmedBy,
      result: summarize(modelText),
      definitionHash: entry?.definitionHash ?? null,
      ...(base.rule ? { rule: base.rule } : {}),
      ...auditedActor(base.actor),
      ...(base.trace ? { trace: base.trace } : {}),
    });
    const waited = base.times.confirmWaitMs === undefined ? '' : `, ${base.times.confirmWaitMs} ms of it waiting for confirmation`;
    this.options.logger.info(`call ${base.name}${fromActor(base.actor)} → ${r.outcome} in ${durationMs} ms${waited}${result.confirmedBy ? ` (confirmed by ${result.confirmedBy})` : ''}`);
    return result;
  }
}

interface CallBase {
  readonly name: string;
  readonly started: number;
  readonly role: string | undefined;
  readonly actor?: CallActor;
  /** The call's span (telemetry on): its ids go to the server and into the audit record. */
  readonly trace?: TraceIds;
  rule?: RuleHit;
  readonly times: { serverMs?: number; confirmWaitMs?: number }; // apart: the server's time, a person's wait
}

/** Arguments as sent, parsed when they can be, so the audit's key-based redaction also covers JSON-string arguments. */
function asSent(args: unknown): unknown {
  const parsed = parseCallArguments(args);
  return parsed.ok ? parsed.args : args;
}

function ruleLabel(rule: RuleHit): string {
  return `rule ${rule.setting}: ${rule.reason}${rule.error ? ` — ${rule.error}` : ''}`;
}

function ruleDeniedText(entry: RegistryEntry, rule: RuleHit): string {
  return `The call to tool "${entry.name}" was refused by the host's policy (${ruleLabel(rule)}). The server was not called. Do not retry it with the same arguments; tell the user if it is needed.`;
}

function invalidArgsText(entry: RegistryEntry, errors: readonly string[]): string {
  return `Invalid arguments for tool "${entry.name}"; the server was not called:\n${errors.map((e) => `- ${e}`).join('\n')}\nCheck the tool's input schema and try again.`;
}

function cancelledText(entry: RegistryEntry): string {
  return `The call to tool "${entry.name}" was cancelled by the user.`;
}
