/**
 * Puts the host's questions to the user one at a time, even when several servers (or several
 * calls of one server) ask at once: a second form never opens over the first.
 */
export class PromptQueue {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(ask: () => Promise<T>): Promise<T> {
    const turn = this.last.then(ask, ask);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}
