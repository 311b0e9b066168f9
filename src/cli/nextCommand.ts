import type { HostSnapshot, ServerView } from '../core/host/hostSnapshot';

/** The --workspace and --role of this run, repeated in the commands a message names. */
export interface RunContext {
  readonly workspace?: string;
  readonly role?: string;
}

/** A word of a command line as a person can paste it into a shell. */
export function shellWord(s: string): string {
  if (s === '') return '""';
  return /^[\w@%+=:,./-]+$/.test(s) ? s : JSON.stringify(s);
}

/** `mcp-host WORDS… [--workspace W] [--role R]`, ready to paste. */
export function cliCommand(words: readonly string[], ctx: RunContext = {}): string {
  const flags = [...(ctx.workspace !== undefined ? ['--workspace', ctx.workspace] : []), ...(ctx.role !== undefined ? ['--role', ctx.role] : [])];
  return ['mcp-host', ...words, ...flags].map((w, i) => (i === 0 ? w : shellWord(w))).join(' ');
}

/** Lets servers start in this workspace (consent only; their calls are still confirmed). */
export function allowCommand(servers: readonly string[], ctx: RunContext): string {
  return cliCommand(['allow', ...servers], { workspace: ctx.workspace });
}

/** Shows and approves the quarantined definitions (of the role's servers, with --role). */
export function lockCommandFor(ctx: RunContext): string {
  return cliCommand(['lock'], ctx);
}

/** Servers of the role that did not start because nobody allowed them (or the question is still open). */
export function serversWaitingForConsent(snapshot: HostSnapshot): ServerView[] {
  return snapshot.servers.filter((s) => s.usedByRole && s.settings.enabled && !s.connected && s.consent !== undefined);
}

/** Servers of the role whose start failed for a reason their stderr may explain (not consent, not sign-in). */
export function serversThatFailed(snapshot: HostSnapshot): ServerView[] {
  return snapshot.servers.filter((s) => s.usedByRole && s.settings.enabled && s.failure !== undefined && s.consent === undefined && !s.needsSignIn && !s.connected);
}

/** The hint after a failed start when --verbose was not given: the log shows only the error's line, --verbose the whole stderr. */
export function verboseHint(snapshot: HostSnapshot, verbose: boolean): string | undefined {
  if (verbose) return undefined;
  const failed = serversThatFailed(snapshot).filter((s) => s.settings.type === 'stdio');
  if (!failed.length) return undefined;
  const names = failed.map((s) => `"${s.name}"`).join(', ');
  return `mcp-host: to see everything ${names} wrote to stderr, run the command again with --verbose`;
}
