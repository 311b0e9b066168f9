import type { DefinitionReview } from '../core/pinning/definitionReview';
import type { CheckReport } from './checkReport';
import { checkVerdict, lockfileMatches } from './checkReport';
import { formatReview } from './formatDrift';

/** The human (non-JSON) output of `check`: a server table, a tool table and a verdict. */
export function formatCheckReport(report: CheckReport, workspaceDir: string, reviews: readonly DefinitionReview[] = []): string {
  const out: string[] = [];
  out.push(`Workspace: ${workspaceDir}`);
  out.push(`Role:      ${report.role ?? '(none: every enabled server, every tool)'}`);
  out.push('');

  if (report.servers.length === 0) {
    out.push('No servers are configured (mcpHost.servers, or the files of mcpHost.import).');
  } else {
    const rows = report.servers.map((s) => [
      s.source ? `${s.name} (${s.source})` : s.name,
      s.state,
      s.state === 'connected' ? `${s.visibleToolCount}/${s.toolCount}` : '-',
      serverDetails(s),
    ]);
    out.push(...table(['SERVER', 'STATE', 'TOOLS', 'DETAILS'], rows));
    out.push('(TOOLS: seen by the role / listed by the server)');
    if (report.servers.some((s) => s.source)) out.push('(in parentheses: the file a server is imported from; mcpHost.servers wins a name clash)');
  }
  out.push('');

  if (report.tools.length === 0) {
    out.push('The role sees no tools.');
  } else {
    const views = report.tools.some((t) => t.view);
    const rows = report.tools.map((t) => [t.name, t.server, t.confirm, ...(views ? [t.view ? 'view' : '-'] : []), oneLine(t.description, 72)]);
    out.push(...table(['TOOL', 'SERVER', 'CONFIRM', ...(views ? ['APP'] : []), 'DESCRIPTION'], rows));
    out.push('(CONFIRM: auto = runs without asking by the host\'s policy; ask = the user must confirm)');
    if (views) out.push('(APP: view = its result comes with a view (an MCP App) that the editor shows; the CLI prints only text)');
  }
  if (report.appOnly.length) {
    out.push('', 'App-only (only a view of their own server may call them; never offered to a model):');
    out.push(...table(['TOOL', 'SERVER', 'DESCRIPTION'], report.appOnly.map((t) => [t.tool, t.server, oneLine(t.description, 72)])));
  }
  out.push('', budgetLine(report.budget), '');

  if (report.quarantined.length) {
    const rows = report.quarantined.map((q) => [q.tool, q.server, oneLine(q.message, 110)]);
    out.push('Quarantined (offered to no role until a person reviews them: MCP Host: Review Tool Changes…, or "mcp-host lock"):');
    out.push(...table(['TOOL', 'SERVER', 'WHY'], rows));
    out.push('');
  }

  const l = report.lockfile;
  if (l) {
    if (l.error !== undefined) out.push(`Lockfile: ${l.error}`);
    else if (!l.exists) out.push(`Lockfile: ${l.path} does not exist; create it with "mcp-host lock" and commit it.`);
    else if (lockfileMatches(l)) out.push(`Lockfile: ${l.path} matches what the servers list.`);
    else out.push(`Lockfile: ${l.path} differs from what the servers list:`);
    for (const r of reviews) out.push(...formatReview(r).map((line) => `  ${line}`));
    for (const s of l.staleEntries) out.push(`  server "${s}" has an entry but is not configured any more`);
    for (const t of l.inconsistentEntries) out.push(`  the entry of ${t} does not match its own hash (edited by hand?); run "mcp-host lock"`);
    out.push('');
  }

  const started = report.servers.filter((s) => s.state !== 'disabled');
  const connected = started.filter((s) => s.state === 'connected').length;
  const errors = report.problems.filter((p) => p.severity === 'error').length;
  const warnings = report.problems.length - errors;
  const verdict = VERDICTS[checkVerdict(report)];
  const problemText = report.problems.length
    ? `${plural(errors, 'error problem')}, ${plural(warnings, 'warning')} (printed on stderr)`
    : 'no problems';
  const quarantined = report.quarantined.length ? `, ${report.quarantined.length} quarantined` : '';
  const drift = l && !lockfileMatches(l) ? ', the lockfile differs' : '';
  const appOnly = report.appOnly.length ? ` (and ${report.appOnly.length} app-only)` : '';
  out.push(`${verdict}: ${connected} of ${plural(started.length, 'started server')} connected, ${plural(report.tools.length, 'tool')} for the role${appOnly}${quarantined}, ${problemText}${drift}.`);
  for (const n of report.next) out.push(`Next: ${n.command}   (${n.reason})`);
  return out.join('\n') + '\n';
}

const VERDICTS = { ok: 'OK', failed: 'FAILED', needsDecision: 'NOT READY' } as const;

/** "Budget: 400 tools, 41,600 tokens (o200k_base); limit 128 tools, no token limit: OVER, …". */
export function budgetLine(b: CheckReport['budget']): string {
  const tokens = b.tokens !== null ? `, ${b.tokens.toLocaleString('en-US')} tokens of definitions (${b.tokenizer})` : '';
  const limit = `limit ${b.maxTools} tools, ${b.maxToolTokens !== null ? `${b.maxToolTokens.toLocaleString('en-US')} tokens` : 'no token limit'}`;
  const verdict = b.over ? 'OVER: each request carries the most relevant tools plus search_tools' : 'within budget';
  return `Budget:    ${plural(b.tools, 'tool')}${tokens} per request; ${limit}; ${verdict}`;
}

function serverDetails(s: CheckReport['servers'][number]): string {
  if (s.state === 'notAllowed') return `not allowed to start in this workspace; run: ${s.allow}`;
  if (s.state === 'needsSignIn') return `not signed in${s.issuer ? ` (sign in with ${s.issuer})` : ''}; run: ${s.login}`;
  if (s.state === 'connected') {
    const info = s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : 'unnamed server';
    return `${info}${s.protocolVersion ? `, protocol ${s.protocolVersion}${s.era ? ` (${s.era})` : ''}` : ''}${s.transport ? `, over ${TRANSPORT_NAMES[s.transport] ?? s.transport}` : ''}`;
  }
  return oneLine(s.error ?? s.reason ?? '', 200);
}

/** How the check table names a transport (`type: "http"` may end up on either of the last two). */
const TRANSPORT_NAMES: Record<string, string> = { stdio: 'stdio', streamableHttp: 'Streamable HTTP', sse: 'SSE', inMemory: 'in-process' };

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
