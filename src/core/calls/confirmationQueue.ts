import type { RuleHit } from '../policy/argumentRules';
import type { SessionApprovals } from '../policy/sessionApprovals';
import type { RegistryEntry } from '../tools/toolRegistry';
import { errorText } from '../util/errorText';
import type { Logger } from '../util/logger';
import type { CallActor } from '../audit/callActor';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from './confirmer';

/**
 * Asks the user one question at a time even when calls run in parallel. Failing to ask (the
 * confirmer throws, a dialog is refused) is a denial, never consent; a Stop ends the wait even
 * when the confirmer does not honour the signal.
 */
export class ConfirmationQueue {
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly confirmer: Confirmer,
    private readonly approvals: SessionApprovals,
    private readonly logger: Logger,
  ) {}

  ask(
    entry: RegistryEntry,
    args: Record<string, unknown>,
    role: string | undefined,
    signal?: AbortSignal,
    rule?: RuleHit,
    from: { readonly actor?: CallActor; readonly confirmer?: Confirmer } = {},
  ): Promise<ConfirmationAnswer> {
    const ask = async (): Promise<ConfirmationAnswer> => {
      if (signal?.aborted) return 'deny';
      // A second call of the same tool may have been allowed for the session while this one waited.
      if (!rule && this.approvals.has(role, entry.server, entry.tool.name)) return 'session';
      try {
        const request: ConfirmationRequest = {
          role,
          name: entry.name,
          server: entry.server,
          tool: entry.tool.name,
          title: entry.tool.title ?? entry.tool.annotations?.title,
          description: entry.tool.description,
          args,
          annotations: entry.tool.annotations,
          ...(rule ? { rule } : {}),
          ...(from.actor && from.actor.kind !== 'model' ? { actor: from.actor } : {}),
        };
        return await untilAborted((from.confirmer ?? this.confirmer).confirm(request, signal), signal);
      } catch (e) {
        this.logger.warn(`confirmation for "${entry.name}" failed, treated as denied: ${errorText(e)}`);
        return 'deny';
      }
    };
    const turn = this.last.then(ask, ask);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

function untilAborted(answer: Promise<ConfirmationAnswer>, signal?: AbortSignal): Promise<ConfirmationAnswer> {
  if (!signal) return answer;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<ConfirmationAnswer>((resolve) => {
    onAbort = () => resolve('deny');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
