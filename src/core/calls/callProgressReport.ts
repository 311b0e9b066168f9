import { describeProgress, throttleProgress, type CallProgress, type ProgressListener } from '../mcp/callProgress';
import type { CallTimeoutError } from '../mcp/call/toolCall';
import type { Logger } from '../util/logger';

/** How often a call's progress is written to the log at most (the last step and task status changes always are). */
const LOG_INTERVAL_MS = 1000;

/**
 * Where a call's progress goes: the log (the output channel) and the caller's listener (the
 * chat's progress for that call), with the server's secret values masked in its message.
 */
export function callProgressReport(logger: Logger, name: string, redact: (text: string) => string, listener?: ProgressListener): ProgressListener {
  const log = throttleProgress((p) => logger.info(`call ${name}: ${describeProgress(p)}`), LOG_INTERVAL_MS);
  return (p: CallProgress) => {
    const safe = p.message === undefined ? p : { ...p, message: redact(p.message) };
    log(safe);
    listener?.(safe);
  };
}

/** The model's text for a timed-out call: without a result for `timeoutMs`, or past the total cap. */
export function timeoutText(name: string, error: CallTimeoutError): string {
  return `Tool "${name}" ${error.message}; the server was told to cancel it. Try something else or ask the user.`;
}
