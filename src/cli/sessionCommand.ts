import * as readline from 'node:readline';
import type { Disposable } from '../core/util/event';
import { CliBrowser } from './cliBrowser';
import { createHost, flagOptions } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { noTerminalConsent } from './terminalConsentPrompt';
import { ExitCode } from './exitCodes';
import { serverStateEvent, toolsChangedEvent } from './jsonViews';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { LoginWhenNeeded } from './loginWhenNeeded';
import { printJsonLine, writeStderr } from './output';
import type { SessionOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { SessionHandler } from './sessionHandler';
import { SessionRequests } from './sessionRequests';
import { parseRequestLine } from './sessionProtocol';
import { createStderrLogger } from './stderrLogger';

/**
 * `mcp-host session`: a long-lived host driven by JSON lines on stdin. Requests run concurrently
 * and are answered as they finish; server-state and tool-list events are printed as they happen,
 * and so are the servers' questions (`elicitation`, `sampling` events) that the driver answers.
 * End of stdin declines open questions, waits for the requests in flight, stops the servers, exits 0.
 */
export async function runSession(o: SessionOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, o.role);
  printProblems(workspace.problems);
  let printing = true;
  const emit = (value: unknown) => {
    if (printing) printJsonLine(value);
  };
  // The driver answers the servers' questions: each is an event, each answer an op.
  const requests = new SessionRequests(emit);
  const browser = o.login ? new CliBrowser(process.env, writeStderr) : undefined;
  const host = lifecycle.track(
    createHost(workspace, {
      ...flagOptions(o, lifecycle),
      yes: o.yes,
      // stdin is the protocol: nobody can be asked.
      confirmer: new DenyingConfirmer('a session cannot ask (stdin is the protocol)'),
      serverRequests: { elicitation: requests, sampler: requests },
      consent: noTerminalConsent('a session cannot ask (stdin is the protocol)'),
      logger: createStderrLogger(o.verbose),
      browser,
      verbose: o.verbose,
    }),
  );

  const subscriptions: Disposable[] = [
    host.onDidChangeServerState((e) => emit(serverStateEvent(e, host.snapshot()))),
    host.onDidChangeToolList((e) => {
      const event = toolsChangedEvent(e, host.snapshot());
      if (event) emit(event);
    }),
    host.catalog.onDidUpdateResource((e) => emit({ event: 'resourceUpdated', server: e.server, uri: e.uri })),
  ];

  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  lifecycle.onSignal(() => {
    abort.abort();
    requests.end();
    return Promise.all(inFlight);
  });

  // --login: sign in to the servers that need it before answering requests; a later refusal (an
  // expired sign-in, a step-up) is signed in in the background, within the limits of LoginWhenNeeded.
  const login = o.login ? new LoginWhenNeeded(host, writeStderr, abort.signal) : undefined;
  const ready: Promise<void> = host
    .start()
    .then(() => login?.signInWaiting())
    .then(() => printProblems(host.snapshot().problems));
  if (login) subscriptions.push(host.auth.onDidRequireSignIn((r) => void ready.then(() => login.signIn(r.server))));
  const handler = new SessionHandler(host, workspace, ready, abort.signal, requests, emit);

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
  // Nobody is left to answer: open questions (and later ones) are declined, so calls can finish.
  requests.end();

  try {
    await ready;
    while (inFlight.size) await Promise.all(inFlight);
    return ExitCode.ok;
  } finally {
    printing = false;
    for (const s of subscriptions) s.dispose();
    await browser?.settle();
    await lifecycle.closeHost();
  }
}
