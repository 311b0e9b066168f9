/**
 * MCP Host's input boxes and its modal questions, kept apart. A modal that opens while a person
 * types into an input box takes the keyboard: their Enter answers the modal (here: allowed a
 * server's start) and the input box stays open. So a modal question waits until the input boxes
 * MCP Host has open are closed (found by the imports suite once consent questions were gathered).
 */
export class InputGate {
  private open = 0;
  private readonly waiters: (() => void)[] = [];

  /** Runs `show` (an input box or quick pick) as an open input. */
  async during<T>(show: () => Thenable<T>): Promise<T> {
    this.open++;
    try {
      return await show();
    } finally {
      if (--this.open === 0) for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Resolves once no input is open. */
  idle(): Promise<void> {
    return this.open === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The editor's one gate: the secret and input prompts pass through it, the consent modals wait on it. */
export const inputGate = new InputGate();
