import type { AuditLog } from '../audit/auditLog';
import type { Logger } from '../util/logger';
import type { ToolsChangedEvent } from '../tools/toolRegistry';

/** Log a server's tool-list change; a changed description is a warning, with before and after. */
export function logToolListChange(logger: Logger, e: ToolsChangedEvent): void {
  const parts = [
    e.added.length ? `added ${e.added.join(', ')}` : '',
    e.removed.length ? `removed ${e.removed.join(', ')}` : '',
    e.changed.length ? `changed ${e.changed.map((c) => c.tool).join(', ')}` : '',
  ].filter(Boolean);
  logger.info(`[${e.server}] tools changed: ${parts.join('; ')}`);
  for (const c of e.changed) {
    if (c.descriptionBefore === c.descriptionAfter) continue;
    // A description is part of the prompt: a changed one can change behaviour or carry injected instructions.
    logger.warn(
      `[${e.server}] description of tool "${c.tool}" changed:\n  before: ${JSON.stringify(c.descriptionBefore ?? '')}\n  after:  ${JSON.stringify(c.descriptionAfter ?? '')}`,
    );
  }
}

/** Log the change and write its audit record. */
export function recordToolListChange(logger: Logger, audit: AuditLog, e: ToolsChangedEvent): void {
  logToolListChange(logger, e);
  void audit.record({ kind: 'toolsChanged', ts: e.ts, server: e.server, added: e.added, removed: e.removed, changed: e.changed });
}
