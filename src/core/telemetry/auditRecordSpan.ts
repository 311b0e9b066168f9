import type { CallAuditRecord, ToolsChangedAuditRecord } from '../audit/auditRecord';
import { looksSecret } from '../audit/redactArguments';
import type { ServerFacts, SpanAttributeValue, SpanContext, SpanSpec } from './spanSpec';

/**
 * Audit record → span, by `kind`, with the attributes of the OpenTelemetry semantic conventions for
 * MCP and GenAI where they exist (`mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`,
 * `mcp.session.id`, `mcp.protocol.version`, `error.type`, `network.transport`, `server.address`, …;
 * open-telemetry/semantic-conventions-genai docs/gen-ai/mcp.md) and the host's own under `mcp_host.*`
 * (role, outcome, confirmed_by, definition_hash, rule, server, source). Content (tool arguments and
 * results, and the content-like fields of other records) only with `captureContent`; the record is
 * already redacted like the audit, and secret-looking keys are never exported. A kind this mapping
 * does not know still becomes a span, with its plain fields.
 */
export function auditRecordSpan(record: { readonly kind: string }, ctx: SpanContext): SpanSpec {
  switch (record.kind) {
    case 'call':
      return callSpan(record as CallAuditRecord, ctx);
    case 'toolsChanged':
      return toolsChangedSpan(record as ToolsChangedAuditRecord, ctx);
    default:
      return genericSpan(record as Record<string, unknown> & { kind: string }, ctx);
  }
}

const OK_OUTCOMES = new Set(['ok']);

function callSpan(r: CallAuditRecord, ctx: SpanContext): SpanSpec {
  const tool = r.tool ?? r.name;
  const end = Date.parse(r.ts);
  const a: Record<string, SpanAttributeValue> = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'mcp_host.tool.exposed_name': r.name,
    'mcp_host.outcome': r.outcome,
    'mcp_host.confirmed_by': r.confirmedBy ?? 'none',
  };
  if (r.role !== null) a['mcp_host.role'] = r.role;
  if (r.definitionHash) a['mcp_host.definition_hash'] = r.definitionHash;
  if (r.server !== null) {
    Object.assign(a, serverAttributes(r.server, ctx.server(r.server)));
    const rule = r.tool !== null ? ctx.rule(r.server, r.tool) : undefined;
    if (rule) a['mcp_host.rule'] = rule;
  }
  const errorType = OK_OUTCOMES.has(r.outcome) ? undefined : r.outcome === 'isError' ? 'tool_error' : r.outcome;
  if (errorType) a['error.type'] = errorType;
  if (ctx.captureContent) {
    a['gen_ai.tool.call.arguments'] = JSON.stringify(r.args ?? {});
    a['gen_ai.tool.call.result'] = r.result;
  }
  return {
    name: `tools/call ${tool}`,
    kind: 'client',
    startTimeMs: end - r.durationMs,
    endTimeMs: end,
    attributes: a,
    ...(errorType ? { error: errorType === 'tool_error' ? 'the tool returned isError' : errorType } : {}),
    ...(validIds(r.trace) ? { ids: r.trace } : {}),
  };
}

/** Ids a record carries are used only when they are W3C ids (a record read back from a file may say anything). */
function validIds(ids: CallAuditRecord['trace']): ids is NonNullable<CallAuditRecord['trace']> {
  return !!ids && /^(?!0+$)[0-9a-f]{32}$/.test(String(ids.traceId)) && /^(?!0+$)[0-9a-f]{16}$/.test(String(ids.spanId));
}

function toolsChangedSpan(r: ToolsChangedAuditRecord, ctx: SpanContext): SpanSpec {
  const at = Date.parse(r.ts);
  return {
    name: 'notifications/tools/list_changed',
    kind: 'server',
    startTimeMs: at,
    endTimeMs: at,
    attributes: {
      'mcp.method.name': 'notifications/tools/list_changed',
      ...serverAttributes(r.server, ctx.server(r.server)),
      'mcp_host.tools.added': [...r.added],
      'mcp_host.tools.removed': [...r.removed],
      'mcp_host.tools.changed': r.changed.map((c) => c.tool),
    },
  };
}

/** Server-initiated requests and other kinds other parts of the host record (by their MCP method where one exists). */
const KNOWN_METHODS: Record<string, { method: string; kind: SpanSpec['kind'] }> = {
  elicitation: { method: 'elicitation/create', kind: 'server' },
  sampling: { method: 'sampling/createMessage', kind: 'server' },
  roots: { method: 'roots/list', kind: 'server' },
  resourceRead: { method: 'resources/read', kind: 'client' },
  resource: { method: 'resources/read', kind: 'client' },
  prompt: { method: 'prompts/get', kind: 'client' },
};
const CONTENT_KEYS = /^(args|arguments|params|result|results|content|contents|message|messages|response|request|requestedSchema|schema|text|prompt|systemPrompt|answer|values)$/i;
const SKIPPED_KEYS = new Set(['kind', 'ts', 'durationMs', 'server', 'role', 'outcome']);

function genericSpan(r: Record<string, unknown> & { kind: string }, ctx: SpanContext): SpanSpec {
  const known = KNOWN_METHODS[r.kind];
  const end = typeof r.ts === 'string' && !Number.isNaN(Date.parse(r.ts)) ? Date.parse(r.ts) : Date.now();
  const duration = typeof r.durationMs === 'number' && r.durationMs >= 0 ? r.durationMs : 0;
  const a: Record<string, SpanAttributeValue> = { 'mcp_host.record.kind': r.kind };
  if (known) a['mcp.method.name'] = known.method;
  if (typeof r.server === 'string') Object.assign(a, serverAttributes(r.server, ctx.server(r.server)));
  if (typeof r.role === 'string') a['mcp_host.role'] = r.role;
  if (typeof r.outcome === 'string') a['mcp_host.outcome'] = r.outcome;
  if (typeof r.uri === 'string') a['mcp.resource.uri'] = r.uri;
  if (typeof r.tool === 'string') a['gen_ai.tool.name'] = r.tool;
  for (const [key, value] of Object.entries(r)) {
    if (SKIPPED_KEYS.has(key) || looksSecret(key)) continue;
    const attr = `mcp_host.${snakeCase(key)}`;
    if (CONTENT_KEYS.test(key)) {
      if (ctx.captureContent && value !== undefined) a[attr] = typeof value === 'string' ? value : JSON.stringify(value);
      continue;
    }
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) a[attr] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) a[attr] = value as string[];
  }
  const failed = r.outcome === 'error' || r.outcome === 'timeout' || typeof r.error === 'string';
  if (failed) a['error.type'] = typeof r.outcome === 'string' && r.outcome !== 'ok' ? r.outcome : 'error';
  return {
    name: known ? known.method : `mcp_host ${r.kind}`,
    kind: known ? known.kind : 'internal',
    startTimeMs: end - duration,
    endTimeMs: end,
    attributes: a,
    ...(failed ? { error: typeof r.error === 'string' ? r.error : String(a['error.type']) } : {}),
  };
}

/** `mcp_host.server` plus what the conventions say about the connection. */
function serverAttributes(server: string, facts: ServerFacts | undefined): Record<string, SpanAttributeValue> {
  const a: Record<string, SpanAttributeValue> = { 'mcp_host.server': server };
  if (!facts) return a;
  if (facts.source) a['mcp_host.server.source'] = facts.source;
  if (facts.protocolVersion) a['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.sessionId) a['mcp.session.id'] = facts.sessionId;
  if (facts.transport === 'stdio') a['network.transport'] = 'pipe';
  else if (facts.transport === 'streamableHttp' || facts.transport === 'sse') {
    a['network.transport'] = 'tcp';
    a['network.protocol.name'] = 'http';
  }
  if (facts.url && !facts.url.includes('${')) {
    try {
      const u = new URL(facts.url);
      a['server.address'] = u.hostname;
      a['server.port'] = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    } catch {
      // not a URL: nothing to say
    }
  }
  return a;
}

function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
