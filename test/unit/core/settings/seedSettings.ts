import * as assert from 'node:assert/strict';
import type { HostSettings, SettingsProblem } from '../../../../src/core/settings/hostSettings';
import { formatProblem } from '../../../../src/core/settings/settingsProblem';

/** The example of the source document: a read-only support role and an operations role whose writes need confirmation. */
export function seedSettings(): Record<string, unknown> {
  return {
    servers: {
      orders: { command: 'node', args: ['${workspaceFolder}/servers/orders.js'], env: { ORDERS_DB: '${env:ORDERS_DB}' } },
      shipping: { type: 'stdio', command: 'node', args: ['servers/shipping.js'], cwd: 'servers' },
      kb: { type: 'http', url: 'https://kb.example.com/mcp', headers: { Authorization: 'Bearer ${secret:KB_TOKEN}' } },
      reports: { type: 'sse', url: 'http://127.0.0.1:8123/sse', timeoutMs: 60000 },
      coupons: { command: 'node', args: ['servers/coupons.js'], connectTimeoutMs: 5000, enabled: true },
    },
    roles: {
      support: {
        description: 'Answers customers: order lookup, shipment lookup, knowledge base. Read only.',
        servers: ['orders', 'shipping', 'kb'],
        tools: ['orders/get_*', 'orders/list_*', 'shipping/*', 'kb/search'],
        exclude: ['*/delete_*'],
        autoApprove: ['*/*'],
      },
      operations: {
        description: 'Reports and coupons.',
        servers: ['reports', 'coupons'],
        confirm: ['coupons/*'],
      },
    },
    activeRole: 'support',
    autoApprove: ['kb/search'],
    confirm: ['*/delete_*', 'coupons/issue_*'],
    toolNames: 'prefix',
    timeoutMs: 20000,
    maxToolRounds: 10,
    maxResultChars: 50000,
    'audit.path': '.mcp-host/audit.jsonl',
  };
}

export const SEED_SERVERS = ['orders', 'shipping', 'kb', 'reports', 'coupons'];

function find(problems: readonly SettingsProblem[], setting: string): SettingsProblem[] {
  return problems.filter((p) => p.setting === setting);
}

/** Exactly one problem at `setting` whose message contains every fragment. */
export function expectProblem(
  problems: readonly SettingsProblem[],
  setting: string,
  fragments: string | string[],
  severity: 'error' | 'warning' = 'error',
): SettingsProblem {
  const at = find(problems, setting);
  assert.equal(at.length, 1, `expected one problem at ${setting}, got:\n${problems.map(formatProblem).join('\n')}`);
  const p = at[0];
  assert.equal(p.severity, severity, formatProblem(p));
  for (const f of [fragments].flat()) assert.ok(p.message.includes(f), `"${p.message}" should contain "${f}"`);
  return p;
}

export function serverNames(s: Pick<HostSettings, 'servers'>): string[] {
  return s.servers.map((x) => x.name);
}

export function roleNames(s: Pick<HostSettings, 'roles'>): string[] {
  return s.roles.map((x) => x.name);
}

/** The seed with one server replaced/added. */
export function withServer(name: string, def: unknown): Record<string, unknown> {
  const raw = seedSettings();
  raw.servers = { ...(raw.servers as object), [name]: def };
  return raw;
}

export function withRole(name: string, def: unknown): Record<string, unknown> {
  const raw = seedSettings();
  raw.roles = { ...(raw.roles as object), [name]: def };
  return raw;
}
