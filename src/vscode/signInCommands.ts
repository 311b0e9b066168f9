import * as vscode from 'vscode';
import type { ServerView } from '../core/host/hostSnapshot';
import { DisposableStore } from '../core/util/event';
import type { OpenExternal } from './externalOpener';
import { errorText, type HostController } from './hostController';
import type { Logger } from '../core/util/logger';

import { COMMANDS } from './commands';

const SIGN_IN_COMMANDS = { signIn: COMMANDS.signIn, signOut: COMMANDS.signOut } as const;

/** What the commands accept: a tree node (`{ kind: 'server', name }`), a server name, or nothing (a quick pick). */
type ServerArgument = { readonly kind?: string; readonly name?: string } | string | undefined;

/** Extension tests only: `{ openExternal }` replaces `vscode.env.openExternal` for this sign-in. */
interface TestOptions {
  readonly openExternal?: OpenExternal;
}

/**
 * Sign In and Sign Out (tree and command palette) and the notification that offers Sign In once
 * per server when a remote server refuses the host (issue 11). A sign-in runs in a cancellable
 * notification; it never blocks the tree, the chat or the other servers.
 */
export function registerSignInCommands(controller: HostController, logger: Logger, testMode: boolean): vscode.Disposable {
  const host = () => controller.host;
  const disposables = new DisposableStore();
  const offered = new Set<string>();

  const pick = async (title: string, filter: (s: ServerView) => boolean): Promise<string | undefined> => {
    const servers = host().snapshot().servers.filter((s) => s.settings.type !== 'stdio' && filter(s));
    if (servers.length === 0) {
      void vscode.window.showInformationMessage(`MCP Host: no remote server to ${title.toLowerCase()}.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      servers.map((s) => ({ label: s.name, description: s.description })),
      { title: `MCP Host: ${title}`, placeHolder: 'Remote server' },
    );
    return picked?.label;
  };
  const nameOf = (arg: ServerArgument) => (typeof arg === 'string' ? arg : arg?.kind === 'server' ? arg.name : undefined);

  const signIn = async (arg: ServerArgument, options?: TestOptions): Promise<void> => {
    const name = nameOf(arg) ?? (await pick('Sign In', (s) => s.needsSignIn || !s.connected));
    if (!name) return;
    const run = () =>
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `MCP Host: signing in to "${name}"`, cancellable: true },
        (progress, token) => {
          progress.report({ message: 'complete the sign-in in your browser…' });
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          return host()
            .auth.signIn(name, { signal: abort.signal })
            .finally(() => sub.dispose());
        },
      );
    const opener = testMode ? options?.openExternal : undefined;
    const result = opener ? await controller.opener.with(opener, run) : await run();
    if (result.kind === 'signedIn') {
      offered.delete(name);
      void vscode.window.showInformationMessage(`MCP Host: signed in to "${name}" with ${result.issuer}.`);
    } else if (result.kind === 'failed') {
      void vscode.window.showErrorMessage(`MCP Host: sign-in to "${name}" failed: ${result.reason}`);
    } else {
      void vscode.window.showInformationMessage(`MCP Host: sign-in to "${name}" cancelled: ${result.reason}`);
    }
  };

  const signOut = async (arg: ServerArgument): Promise<void> => {
    const name = nameOf(arg) ?? (await pick('Sign Out', () => true));
    if (!name) return;
    const had = await host().auth.signOut(name);
    void vscode.window.showInformationMessage(
      had ? `MCP Host: signed out of "${name}"; its tokens were removed from the editor's secret storage.` : `MCP Host: nothing was stored for "${name}".`,
    );
  };

  const register = (id: string, run: (...args: never[]) => Promise<void>) =>
    disposables.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await (run as (...a: unknown[]) => Promise<void>)(...args);
        } catch (e) {
          logger.error(`${id}: ${errorText(e)}`);
          void vscode.window.showErrorMessage(`MCP Host: ${errorText(e)}`);
        }
      }),
    );
  register(SIGN_IN_COMMANDS.signIn, signIn);
  register(SIGN_IN_COMMANDS.signOut, signOut);

  // Offer Sign In once per server (again after it signed in and later lost its sign-in).
  disposables.add(
    host().auth.onDidRequireSignIn((r) => {
      if (offered.has(r.server)) return;
      offered.add(r.server);
      const what = r.stepUp
        ? `"${r.server}" asks for additional permission${r.scope ? ` (${r.scope})` : ''}`
        : `"${r.server}" needs you to sign in${r.issuer ? ` with ${r.issuer}` : ''}`;
      void vscode.window.showWarningMessage(`MCP Host: ${what}.`, 'Sign In').then((choice) => {
        if (choice === 'Sign In') void vscode.commands.executeCommand(SIGN_IN_COMMANDS.signIn, r.server);
      });
    }),
  );
  return disposables;
}
