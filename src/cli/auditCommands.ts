import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { rotatedFiles } from '../core/audit/auditFiles';
import { filterAudit, readAuditLines, toCsv, toJsonl } from '../core/audit/exportAudit';
import { hostAuditPath } from '../core/audit/resolveAuditPath';
import { verifyAuditFiles } from '../core/audit/verifyAudit';
import { CliError, ExitCode } from './exitCodes';
import { loadWorkspace } from './loadWorkspace';
import { printJson, writeStdout } from './output';
import type { AuditExportOptions, AuditVerifyOptions } from './parseArgs';

/** The files given (relative to the current directory), or the workspace's audit file after its rotated files. */
function auditFiles(o: { workspace?: string; files: readonly string[] }): string[] {
  if (o.files.length) return o.files.map((f) => path.resolve(f));
  const workspace = loadWorkspace(o.workspace, undefined);
  const file = hostAuditPath({ workspaceFolder: workspace.dir }, workspace.settings);
  if (!file) throw new CliError(`mcpHost.audit.path is not set in ${workspace.settingsFile}: give the audit FILE(s)`, ExitCode.usage);
  return [...rotatedFiles(file), ...(existsSync(file) ? [file] : [])];
}

const UNANCHORED_HINT = ' (if this file is known to have no head file, e.g. a copy of its records, pass --allow-unanchored)';

/** `mcp-host audit verify [FILE…]`: check the hash chain; name the first line altered, removed or inserted. */
export async function runAuditVerify(o: AuditVerifyOptions): Promise<number> {
  const files = auditFiles(o);
  if (!files.length) throw new CliError('there is no audit file yet', ExitCode.failure);
  const result = verifyAuditFiles(files, { allowUnanchored: o.allowUnanchored });
  if (o.json) {
    await printJson(result);
    return result.ok ? ExitCode.ok : ExitCode.failure;
  }
  for (const f of result.files) {
    const name = path.relative(process.cwd(), f.file) || f.file;
    if (f.unchained) {
      writeStdout(`${name}: ${f.records} records written before records were chained: not verifiable\n`);
      continue;
    }
    const span = f.firstSeq !== undefined ? ` (records ${f.firstSeq}–${f.lastSeq ?? '?'})` : '';
    const end = f.anchored ? '' : '; its last record is not anchored (no head file)';
    writeStdout(`${name}: ${f.records} line${f.records === 1 ? '' : 's'}${span}: ${f.problems.length ? `${f.problems.length} problem${f.problems.length === 1 ? '' : 's'}` : 'chain intact'}${f.problems.length ? '' : end}\n`);
    for (const p of f.problems) writeStdout(`  ${p.kind.toUpperCase()}: ${p.message}${p.kind === 'unanchored' ? UNANCHORED_HINT : ''}\n`);
  }
  const first = result.files.flatMap((f) => f.problems)[0];
  writeStdout(first ? `FAILED: the first problem is ${first.message}\n` : `OK: ${result.files.length} file${result.files.length === 1 ? '' : 's'} verified.\n`);
  return result.ok ? ExitCode.ok : ExitCode.failure;
}

/** `mcp-host audit export`: the records of the audit files, filtered, as JSON lines or CSV on stdout. */
export function runAuditExport(o: AuditExportOptions): number {
  const records = filterAudit(readAuditLines(auditFiles(o)), o);
  writeStdout(o.format === 'csv' ? toCsv(records) : toJsonl(records));
  return ExitCode.ok;
}
