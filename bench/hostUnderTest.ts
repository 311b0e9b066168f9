/**
 * The ONE place where the benchmarks touch McpHost and src/core's host internals. When the host's
 * API changes, adapt this file; every benchmark goes through it.
 *
 * Used from McpHost (its public API only): the constructor with McpHostOptions, start(), call(),
 * snapshot() (the tools the model sees: `exposed`), onDidRecord, definitions.lockAll() (the user's
 * review of the servers' tool definitions, as `mcp-host lock`) and close().
 * The one exception is the registry row, which issue 10 defines below the host (a registry built
 * from scratch, the role filter, the model definitions): it composes ToolRegistry, PolicySet and
 * toModelTools the way McpHost and HostSnapshot do.
 * (The CLI rows run dist/cli.js as a process and need nothing from here.)
 */
import type { Tool } from '@modelcontextprotocol/client';
import { toModelTools } from '../src/core/agent/agentLoop';
import type { ModelToolDefinition } from '../src/core/agent/agentMessages';
import type { AuditRecord } from '../src/core/audit/auditRecord';
import { fixedConfirmer } from '../src/core/calls/confirmer';
import type { ToolCallResult } from '../src/core/calls/toolRouter';
import type { HostSnapshot } from '../src/core/host/hostSnapshot';
import { McpHost } from '../src/core/host/mcpHost';
import { createDefaultTransportFactory } from '../src/core/mcp/defaultTransportFactory';
import type { TransportFactory } from '../src/core/mcp/serverTransport';
import { MemoryLockfileStore, type LockfileStore } from '../src/core/pinning/lockfileStore';
import { PolicySet } from '../src/core/policy/activePolicies';
import { DEFAULTS, emptySettings, type RoleSettings, type ServerSettings } from '../src/core/settings/hostSettings';
import { envSecretResolver } from '../src/core/settings/resolveServerSettings';
import type { ExposedTool } from '../src/core/tools/exposedTool';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import type { Event } from '../src/core/util/event';
import { nullLogger } from '../src/core/util/logger';
import type { ServerSpec } from './common';

export type { ModelToolDefinition } from '../src/core/agent/agentMessages';
export type { LockfileStore } from '../src/core/pinning/lockfileStore';

export interface HostOptions {
  /** `mcpHost.autoApprove`; default every tool (`*\/*`), so no call waits for a confirmation. */
  readonly autoApprove?: readonly string[];
  /** JSONL audit file (as `mcpHost.audit.path`); undefined = no audit file. */
  readonly auditPath?: string;
  /** Per-call timeout (`mcpHost.timeoutMs`). */
  readonly timeoutMs?: number;
  /** How servers are reached (e.g. test/fixtures/inMemoryServers); default real processes. */
  readonly transports?: TransportFactory;
  /** false: real processes, every request through the SDK's request path (no DirectRequests). */
  readonly directRequests?: boolean;
  /**
   * The reviewed tool definitions (`mcpHost.pinning` is "review", the default): a lockfile shared
   * by hosts of the same servers (see reviewedDefinitions). Default: an empty one, so every tool
   * is quarantined until `approveDefinitions()`.
   */
  readonly lockfile?: LockfileStore;
}

/** A host as the CLI and the extension build one, for benchmarks. */
export interface HostUnderTest {
  start(): Promise<void>;
  call(name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  /**
   * What a person does once with new servers (`mcp-host lock`, or Approve in the editor): every
   * listed tool definition goes into the lockfile, so none is quarantined. Call it outside any timing.
   */
  approveDefinitions(): void;
  /** Names of the tools the model sees now. */
  toolNames(): string[];
  /** The model tool definitions of the tools the model sees now. */
  modelTools(): ModelToolDefinition[];
  snapshot(): HostSnapshot;
  /** Every audit record, once written. */
  readonly onDidRecord: Event<AuditRecord>;
  close(): Promise<void>;
}

function toServerSettings(s: ServerSpec | ServerSettings): ServerSettings {
  if ('type' in s) return s;
  return { name: s.name, type: 'stdio', enabled: true, command: s.command, args: [...s.args], env: { ...s.env }, connectTimeoutMs: DEFAULTS.connectTimeoutMs };
}

/**
 * A host with `servers` (a bench server spec, or settings as they are), every tool auto-approved
 * unless `autoApprove` says otherwise (a confirmation request would be a bug in the benchmark, so
 * the confirmer denies), the audit going to a real JSONL file when `auditPath` is set. Everything
 * is configured here, at construction: nothing is reconfigured while a benchmark measures.
 */
export function createHostUnderTest(servers: readonly (ServerSpec | ServerSettings)[], o: HostOptions = {}): HostUnderTest {
  const settings = {
    ...emptySettings(),
    servers: servers.map(toServerSettings),
    autoApprove: [...(o.autoApprove ?? ['*/*'])],
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
  const host = new McpHost({
    settings,
    secrets: envSecretResolver({}),
    confirmer: fixedConfirmer('deny'),
    logger: nullLogger,
    auditPathOverride: o.auditPath,
    env: {},
    lockfile: o.lockfile ?? new MemoryLockfileStore(),
    ...(o.transports ? { transports: o.transports } : o.directRequests === false ? { transports: createDefaultTransportFactory(undefined, { directRequests: false }) } : {}),
  });
  return {
    start: () => host.start(),
    call: (name, args) => host.call({ name, args }),
    approveDefinitions: () => void host.definitions.lockAll({ user: 'bench', via: 'cli' }),
    toolNames: () => host.snapshot().exposed.map((t) => t.entry.name),
    modelTools: () => toModelTools(host.snapshot().exposed),
    snapshot: () => host.snapshot(),
    onDidRecord: host.onDidRecord,
    close: () => host.close(),
  };
}

/**
 * A lockfile holding what `servers` list now, as after a person reviewed them once: hosts built
 * with it offer every tool from their first listing on (and still compare each listing to it).
 */
export async function reviewedDefinitions(servers: readonly (ServerSpec | ServerSettings)[], o: Omit<HostOptions, 'lockfile'> = {}): Promise<LockfileStore> {
  const lockfile = new MemoryLockfileStore();
  const host = createHostUnderTest(servers, { ...o, auditPath: undefined, lockfile });
  try {
    await host.start();
    host.approveDefinitions();
  } finally {
    await host.close();
  }
  return lockfile;
}

// --- registry row --------------------------------------------------------------------------------

export interface RegistryFixture {
  readonly names: readonly string[];
  readonly lists: readonly (readonly Tool[])[];
}

/** A realistic role over the fixture's servers: most servers, all tools minus destructive ones, some auto-approved. */
function roleFor(names: readonly string[]): RoleSettings {
  return {
    name: 'support',
    servers: names.slice(0, Math.max(1, names.length - 2)),
    tools: ['*/*'],
    exclude: ['*/delete_*', '*/archive_*'],
    autoApprove: ['*/get_*', '*/list_*', '*/search_*'],
    confirm: [`${names[0]}/*`],
  };
}

export interface BuiltRegistry {
  /** Tools in the registry (all servers). */
  readonly entries: number;
  /** Model tool definitions the role's model is given. */
  readonly definitions: number;
  /** One server's list changed (list_changed → tools/list → diff): the registry update. Returns whether exactly one tool changed. */
  refresh(server: string, tools: Tool[]): boolean;
  dispose(): void;
}

/**
 * What the host does to hand a role's tools to a model, from scratch: a ToolRegistry with every
 * server's list and one naming pass (the lists are loaded while the server order is still empty,
 * `configure` then names all at once), the role's policies (PolicySet, as McpHost builds it) with
 * the role filter and confirmation rule per tool (as HostSnapshot.exposed), and the model
 * definitions (toModelTools).
 */
export function buildRoleDefinitions(f: RegistryFixture): BuiltRegistry {
  const serverSettings: ServerSettings[] = f.names.map((name) => ({
    name,
    type: 'stdio',
    enabled: true,
    command: 'node',
    args: [],
    env: {},
    connectTimeoutMs: DEFAULTS.connectTimeoutMs,
  }));
  const role = roleFor(f.names);
  const settings = { ...emptySettings(), servers: serverSettings, roles: [role], activeRole: role.name };
  const registry = new ToolRegistry('prefix', []);
  for (let i = 0; i < f.names.length; i++) registry.setServerTools(f.names[i], f.lists[i] as Tool[]);
  registry.configure('prefix', f.names);
  const policies = new PolicySet(settings, role.name, {}, nullLogger);
  const exposed: ExposedTool[] = [];
  for (const entry of registry.entries()) {
    if (!policies.allows(entry.server, entry.tool.name)) continue;
    exposed.push({ entry, rule: policies.rule(entry.server, entry.tool.name) });
  }
  const defs = toModelTools(exposed);
  return {
    entries: registry.entries().length,
    definitions: defs.length,
    refresh: (server, tools) => {
      const ev = registry.setServerTools(server, tools);
      return !!ev && ev.changed.length === 1 && ev.added.length === 0 && ev.removed.length === 0;
    },
    dispose: () => registry.dispose(),
  };
}
