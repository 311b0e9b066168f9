/**
 * The ONE place where the benchmarks touch McpHost and src/core. When the host's API changes,
 * adapt this file; every benchmark goes through it.
 *
 * Used from McpHost: the constructor, start(), call(), the tools the model sees (exposedTools(),
 * to become snapshot()), dispose() (to become close()). The registry row uses ToolRegistry,
 * RolePolicy, ConfirmationPolicy and toModelTools directly, as McpHost.exposedTools() does.
 * (The CLI rows run dist/cli.js as a process and need nothing from here.)
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toModelTools } from '../src/core/agent/agentLoop';
import { fixedConfirmer } from '../src/core/calls/confirmer';
import { McpHost, type ExposedTool } from '../src/core/host/mcpHost';
import { ConfirmationPolicy } from '../src/core/policy/confirmationPolicy';
import { RolePolicy } from '../src/core/policy/rolePolicy';
import { DEFAULTS, emptySettings, type RoleSettings, type ServerSettings } from '../src/core/settings/hostSettings';
import { envSecretResolver } from '../src/core/settings/resolveServerSettings';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import type { ServerSpec } from './common';

export interface HostOptions {
  /** `mcpHost.autoApprove`; default every tool (`*\/*`), so no call waits for a confirmation. */
  readonly autoApprove?: readonly string[];
  /** JSONL audit file (as `mcpHost.audit.path`); undefined = no audit file. */
  readonly auditPath?: string;
  /** Per-call timeout (`mcpHost.timeoutMs`). */
  readonly timeoutMs?: number;
}

/** What a benchmark reads from a call's result (a subset of the router's ToolCallResult). */
export interface HostCallResult {
  readonly outcome: string;
  readonly confirmedBy: string | null;
  readonly content: readonly unknown[];
  readonly modelText: string;
}

/** A host as the CLI and the extension build one, for benchmarks. */
export interface HostUnderTest {
  start(): Promise<void>;
  call(name: string, args: Record<string, unknown>): Promise<HostCallResult>;
  /** Names of the tools the model sees now. */
  toolNames(): string[];
  close(): Promise<void>;
}

/**
 * A host with `servers`, every tool auto-approved unless `autoApprove` says otherwise (a
 * confirmation request would be a bug in the benchmark, so the confirmer denies), the audit going
 * to a real JSONL file when `auditPath` is set. Everything is configured here, at construction:
 * nothing is reconfigured while a benchmark measures.
 */
export function createHostUnderTest(servers: readonly ServerSpec[], o: HostOptions = {}): HostUnderTest {
  const settings = {
    ...emptySettings(),
    servers: servers.map(
      (s): ServerSettings => ({
        name: s.name,
        type: 'stdio',
        enabled: true,
        command: s.command,
        args: [...s.args],
        env: { ...s.env },
        connectTimeoutMs: DEFAULTS.connectTimeoutMs,
      }),
    ),
    autoApprove: [...(o.autoApprove ?? ['*/*'])],
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
  const host = new McpHost({
    settings,
    secrets: envSecretResolver({}),
    confirmer: fixedConfirmer('deny'),
    auditPathOverride: o.auditPath,
    env: {},
  });
  return {
    start: () => host.start(),
    call: (name, args) => host.call({ name, args }),
    toolNames: () => host.exposedTools().map((t) => t.entry.name),
    close: () => host.dispose(),
  };
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
 * `configure` then names all at once), the role filter and confirmation rule (as
 * McpHost.exposedTools), and the model definitions (toModelTools).
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
  const rolePolicy = new RolePolicy(role, serverSettings);
  const confirmation = new ConfirmationPolicy(settings, role);
  const exposed: ExposedTool[] = [];
  for (const entry of registry.entries()) {
    if (!rolePolicy.allows(entry.server, entry.tool.name)) continue;
    exposed.push({ entry, rule: confirmation.rule(entry.server, entry.tool.name) });
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
