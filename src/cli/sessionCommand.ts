import * as readline from 'node:readline';
import type { Disposable } from '../core/util/event';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { noTerminalConsent } from './terminalConsentPrompt';
import { ExitCode } from './exitCodes';
import { serverStateEvent, toolsChangedEvent } from './jsonViews';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { printJsonLine } from './output';
import type { SessionOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { SessionHandler } from './sessionHandler';
import { parseRequestLine } from './sessionProtocol';
import { createStderrLogger } from './stderrLogger';

/**
 * `mcp-host session`: a long-lived host driven by JSON lines on stdin. Requests run concurrently
 * and are answered as they finish; server-state and tool-list events are printed as they happen.
 * End of stdin waits for the requests in flight, stops the servers and exits 0.
 */
export async function runSession(o: SessionOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  const host = lifecycle.track(
    createHost(workspace, {
      role: o.role,
      audit: o.audit,
      timeoutMs: o.timeoutMs,
      yes: o.yes,
      // stdin is the protocol: nobody can be asked.
      confirmer: new DenyingConfirmer('a session cannot ask (stdin is the protocol)'),
      consent: noTerminalConsent('a session cannot ask (stdin is the protocol)'),
      logger: createStderrLogger(o.verbose),
    }),
  );

  let printing = true;
  const emit = (value: unknown) => {
    if (printing) printJsonLine(value);
  };
  const subscriptions: Disposable[] = [
    host.onDidChangeServerState((e) => emit(serverStateEvent(e, host.snapshot()))),
    host.onDidChangeToolList((e) => {
      const event = toolsChangedEvent(e, host.snapshot());
      if (event) emit(event);
    }),
  ];

  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  lifecycle.onSignal(() => {
    abort.abort();
    return Promise.all(inFlight);
  });

  const ready = host.start().then(() => printProblems(host.snapshot().problems));
  const handler = new SessionHandler(host, workspace, ready, abort.signal);

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (line) => {
    if (line.trim() === '') return;
    const parsed = parseRequestLine(line);
    if (!parsed.ok) {
      emit({ id: parsed.id, error: parsed.error });
      return;
    }
    const work = handler.handle(parsed.request).then(emit);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  await new Promise<void>((resolve) => rl.once('close', () => resolve()));

  try {
    await ready;
    while (inFlight.size) await Promise.all(inFlight);
    return ExitCode.ok;
  } finally {
    printing = false;
    for (const s of subscriptions) s.dispose();
    await lifecycle.closeHost();
  }
}
