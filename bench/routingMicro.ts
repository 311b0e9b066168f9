/**
 * Routing + audit overhead per call, in-process (no server process, no pipe): where the host's
 * microseconds go on top of the SDK. Sides, each measured in rotated blocks after a warm-up:
 *   sdk        Client.request('tools/call') over the SDK's InMemoryTransport (the floor)
 *   host       McpHost.call: lookup, role, argument validation, policy, tools/call, reading and
 *              converting the result, redaction, audit record (memory sink)
 *   host+file  the same with the JSONL audit file as shipped
 * and the router's steps alone, timed in a tight loop (lookup + role, arguments, conversion,
 * redaction, the audit record's serialisation and write).
 *
 *   node -r ./bench/register.cjs bench/routingMicro.ts [otherRoot]   otherRoot: another checkout's root, measured in the same
 *                                               rotation (sides "other" and "other+file"), e.g. the base commit
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fmtSigned } from './common';

const root = resolve(join(__dirname, '..'));
const other = process.argv[2] ? resolve(process.argv[2]) : undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadFrom = (r: string) => (p: string) => require(join(r, 'src', p));
const load = loadFrom(root);

function server(): McpServer {
  const s = new McpServer({ name: 'm', version: '1.0.0' });
  s.registerTool('noop', { description: 'noop', inputSchema: { q: z.string().optional(), n: z.number().optional() } }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return s;
}

function factory() {
  return {
    create() {
      const [a, b] = InMemoryTransport.createLinkedPair();
      void server().connect(b);
      return { kind: 'inMemory', transport: a };
    },
  };
}

type Side = () => Promise<unknown>;

async function rotate(sides: Record<string, Side>, blocks: number, size: number): Promise<Record<string, number>> {
  const names = Object.keys(sides);
  const per: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + b) % names.length];
      const t0 = performance.now();
      for (let k = 0; k < size; k++) await sides[name]();
      per[name].push(((performance.now() - t0) * 1000) / size);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(per[n])]));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function loop(fn: () => unknown, n = 20000): number {
  for (let i = 0; i < 2000; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t0) * 1000) / n;
}

/** A host of the checkout at `r` (memory audit sink) and one with the JSONL audit file. */
async function hosts(r: string, dir: string) {
  const from = loadFrom(r);
  const { McpHost } = from('core/host/mcpHost');
  const { MemorySink } = from('core/audit/auditLog');
  const { emptySettings } = from('core/settings/hostSettings');
  const settings = { ...emptySettings(), autoApprove: ['m/*'], pinning: 'off', servers: [{ name: 'm', type: 'stdio', enabled: true, command: 'in-memory', args: [], env: {}, connectTimeoutMs: 5000 }] };
  const base = { settings, secrets: { get: async () => undefined }, confirmer: { confirm: async () => 'once' }, transports: factory() };
  const memHost = new McpHost({ ...base, auditSinks: [new MemorySink(10)] });
  const fileHost = new McpHost({ ...base, auditPathOverride: join(dir, `audit-${Math.random()}.jsonl`) });
  await Promise.all([memHost.start(), fileHost.start()]);
  return { memHost, fileHost };
}

async function main(): Promise<void> {
  const { JsonlFileSink } = load('core/audit/auditLog');
  const dir = mkdtempSync(join(tmpdir(), 'routing-micro-'));
  const { memHost, fileHost } = await hosts(root, dir);
  const others = other ? await hosts(other, dir) : undefined;
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server().connect(st);
  const client = new Client({ name: 'raw', version: '1' });
  await client.connect(ct);

  const args = { q: 'hello', n: 3 };
  const sides: Record<string, Side> = {
    sdk: () => client.request({ method: 'tools/call', params: { name: 'noop', arguments: args } }, CallToolResultSchema),
    host: () => memHost.call({ name: 'm__noop', args }),
    'host+file': () => fileHost.call({ name: 'm__noop', args }),
    ...(others ? { other: () => others.memHost.call({ name: 'm__noop', args }), 'other+file': () => others.fileHost.call({ name: 'm__noop', args }) } : {}),
  };
  for (const f of Object.values(sides)) for (let i = 0; i < 2000; i++) await f();
  const us = await rotate(sides, 15, 1000);

  // The router alone: a connection stub that answers at once, so what is left is routing + audit.
  const routerOnly = async (r: string, file: boolean) => {
    const from = loadFrom(r);
    const { ToolRouter } = from('core/calls/toolRouter');
    const { AuditLog, MemorySink } = from('core/audit/auditLog');
    const { SecretRedactor } = (() => {
      try {
        return from('core/audit/secretRedactor');
      } catch {
        return { SecretRedactor: undefined };
      }
    })();
    const src = memHost as unknown as { registry: unknown; policies: unknown };
    const answer = { content: [{ type: 'text', text: 'ok' }] };
    const connection = { state: { kind: 'connected', info: { capabilities: {} } }, callTool: () => Promise.resolve(answer), redact: (t: string) => t };
    const servers = { get: () => connection, redactor: SecretRedactor ? new SecretRedactor() : undefined };
    const audit = new AuditLog([new MemorySink(10)]);
    if (file) audit.useFile(join(dir, `router-${Math.random()}.jsonl`));
    const nullLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const router = new ToolRouter({ registry: src.registry, servers, policies: src.policies, confirmer: { confirm: async () => 'once' }, audit, logger: nullLogger });
    return { call: () => router.call({ name: 'm__noop', args }), audit };
  };
  const routers = { router: await routerOnly(root, false), 'router+file': await routerOnly(root, true) } as Record<string, { call: Side; audit: { dispose(): void } }>;
  if (other) Object.assign(routers, { 'other router': await routerOnly(other, false), 'other router+file': await routerOnly(other, true) });
  const routerSides = Object.fromEntries(Object.entries(routers).map(([k, v]) => [k, v.call]));
  for (const f of Object.values(routerSides)) for (let i = 0; i < 5000; i++) await f();
  const routerUs = await rotate(routerSides, 15, 5000);
  for (const r of Object.values(routers)) r.audit.dispose();

  // The router's steps alone.
  const registry = (memHost as unknown as { registry: { lookup(n: string): { tool: unknown; definitionHash: string; server: string } } }).registry;
  const policies = (memHost as unknown as { policies: { current: { allows(s: string, t: string): boolean; rule(s: string, t: string): string } } }).policies;
  const entry = registry.lookup('m__noop');
  const { redactArguments, summarize } = load('core/audit/redactArguments');
  const { convertResult } = load('core/calls/resultConversion');
  const { ArgumentValidator } = load('core/calls/argumentValidator');
  const validator = new ArgumentValidator();
  const record = { kind: 'call', ts: new Date().toISOString(), role: null, server: 'm', tool: 'noop', name: 'm__noop', args, outcome: 'ok', isError: false, durationMs: 0.1, confirmedBy: 'policy', result: 'ok', definitionHash: entry.definitionHash };
  const sink = new JsonlFileSink(join(dir, 'steps.jsonl'));
  const steps = {
    'lookup + role + rule': loop(() => {
      const e = registry.lookup('m__noop');
      return policies.current.allows(e.server, 'noop') && policies.current.rule(e.server, 'noop');
    }),
    'validate arguments': loop(() => validator.validate(entry.tool, entry.definitionHash, args)),
    'convert result': loop(() => convertResult({ content: [{ type: 'text', text: 'ok' }] }, 50_000)),
    'audit args + summary': loop(() => [redactArguments(args), summarize('ok')]),
    'audit record write (JSONL)': loop(() => sink.write(record)),
  };
  sink.dispose();
  await Promise.all([memHost.close(), fileHost.close(), client.close(), others?.memHost.close(), others?.fileHost.close()]);
  rmSync(dir, { recursive: true, force: true });

  const fmt = (n: number) => `${n.toFixed(1)} µs`;
  console.log(`routing micro-benchmark (${root})`);
  console.log(`  per call (median of 15 blocks × 1000):  sdk ${fmt(us.sdk)}   host ${fmt(us.host)} (${fmtSigned(us.host - us.sdk, fmt)})   host+file ${fmt(us['host+file'])} (${fmtSigned(us['host+file'] - us.sdk, fmt)})`);
  if (others) console.log(`  ${other}:  host ${fmt(us.other)} (${fmtSigned(us.other - us.sdk, fmt)})   host+file ${fmt(us['other+file'])} (${fmtSigned(us['other+file'] - us.sdk, fmt)})`);
  console.log(`  router alone (connection answers at once): ${Object.entries(routerUs).map(([k, v]) => `${k} ${fmt(v)}`).join(' · ')}`);
  console.log(`  steps: ${Object.entries(steps).map(([k, v]) => `${k} ${fmt(v)}`).join(' · ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
