import { spawn } from 'node:child_process';
import { whyNotOpenable } from './openableUrl';

export interface OpenedBrowser {
  readonly pid: number | undefined;
  /** Settles when the browser command exits (a real browser may keep running; the host does not wait). */
  readonly exited: Promise<number | null>;
}

/**
 * Opens `url` with a browser command such as `$BROWSER`: the command is split on whitespace (no
 * shell, so nothing in the URL is ever interpreted), `%s` in an argument is replaced by the URL,
 * otherwise the URL is appended as the last argument. Only URLs that pass `whyNotOpenable` are
 * opened. Resolves once the process has started; it does not keep the host process alive.
 */
export function openWithBrowserCommand(command: string, url: URL | string, env: NodeJS.ProcessEnv = process.env): Promise<OpenedBrowser> {
  const why = whyNotOpenable(url);
  if (why) return Promise.reject(new Error(`not opening the URL: ${why}`));
  const href = String(url);
  const parts = command.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return Promise.reject(new Error('no browser command'));
  const [program, ...rest] = parts;
  const hasPlaceholder = rest.some((a) => a.includes('%s'));
  const args = hasPlaceholder ? rest.map((a) => a.split('%s').join(href)) : [...rest, href];
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore', shell: false, env, detached: false });
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    child.once('error', (e) => reject(new Error(`could not run the browser command "${program}": ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve({ pid: child.pid, exited });
    });
  });
}
