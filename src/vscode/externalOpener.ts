import * as vscode from 'vscode';
import { whyNotOpenable } from '../core/auth/openableUrl';

function sameUrl(a: URL, b: URL): boolean {
  const params = (u: URL) => JSON.stringify([...u.searchParams.entries()]);
  return a.origin === b.origin && a.pathname === b.pathname && params(a) === params(b);
}

/** `vscode.env.openExternal`'s shape. */
export type OpenExternal = (target: vscode.Uri) => Thenable<boolean>;

/**
 * Opens sign-in pages in the user's browser with `vscode.env.openExternal` (never a shell): only
 * `https:` URLs, or `http:` on loopback. In extension tests a sign-in may run with another
 * `openExternal` (see the Sign In command); nothing else differs.
 */
export class ExternalOpener {
  private override?: OpenExternal;

  readonly openUrl = async (url: URL): Promise<void> => {
    const why = whyNotOpenable(url);
    if (why) throw new Error(`the sign-in page is not opened: ${why}`);
    const uri = vscode.Uri.parse(url.href, true);
    // The editor opens a Uri as encodeURI(uri.toString(true)); a query value that this would change
    // (an encoded "&", "=" or "%") must not reach the authorization server altered.
    if (!sameUrl(new URL(encodeURI(uri.toString(true))), url)) throw new Error('the sign-in URL cannot be passed to the browser unchanged');
    const open = this.override ?? vscode.env.openExternal;
    if (!(await open(uri))) throw new Error('the editor did not open the sign-in page');
  };

  /** Run `work` with `openExternal` replaced (extension tests only). */
  async with<T>(openExternal: OpenExternal, work: () => Thenable<T>): Promise<T> {
    this.override = openExternal;
    try {
      return await work();
    } finally {
      this.override = undefined;
    }
  }
}
