import { FileConsentStore } from '../core/consent/fileConsentStore';
import type { ConsentAnswer, ConsentPrompt, ConsentRequest } from '../core/consent/serverConsent';
import { describeIdentity } from '../core/pinning/serverIdentity';
import { createHost } from './createHost';
import { DenyingConfirmer } from './denyingConfirmer';
import { ExitCode, UsageError } from './exitCodes';
import type { Lifecycle } from './lifecycle';
import { loadWorkspace } from './loadWorkspace';
import { writeStderr, writeStdout } from './output';
import type { AllowOptions } from './parseArgs';
import { printProblems } from './printProblems';
import { createStderrLogger } from './stderrLogger';
import { USAGE } from './usage';

/** `mcp-host allow --help` (followed by the common options). */
export const ALLOW_HELP = `Usage: ${USAGE.allow}

Gives the consent a terminal's "y" gives, without a terminal (CI, scripts): each server NAME (a key
of mcpHost.servers; default: every enabled server) is resolved as its start would be, and the exact
command line (or URL) is printed and allowed for this workspace. The answer is kept in consent.json
(see Trust below) and audited as a "consent" record by the CLI. No server is started, no tool call
is confirmed: a call that needs confirmation still asks (denied without a terminal unless --yes).
A server whose command, args, cwd, env names or URL change needs allowing again; one you denied
before is allowed by naming it here.

  --audit FILE    Audit file (JSON lines) instead of mcpHost.audit.path.

Exit: 0 when every server is allowed, 1 when one could not be (e.g. a variable that does not
resolve), 2 for bad usage (an unknown server).`;

/**
 * The consent question answered "allow" by whoever ran `mcp-host allow`: the exact command (or
 * URL) is printed on stdout, then the core keeps the answer and audits it like a terminal's "y".
 */
class PrintingConsent implements ConsentPrompt {
  readonly asked = new Set<string>();

  async ask(r: ConsentRequest): Promise<ConsentAnswer> {
    this.asked.add(r.server);
    const lines = [`Allowed "${r.server}" to start in this workspace:`, ...describeIdentity(r.identity).map((l) => `  ${l}`)];
    if (r.previous) lines.push('  (it replaces what was allowed before:', ...describeIdentity(r.previous).map((l) => `    ${l}`), '  )');
    writeStdout(lines.join('\n') + '\n');
    return 'allow';
  }
}

/**
 * `mcp-host allow [NAME…]`: the consent a person gives on a terminal, given without one (CI, a
 * script): each named server (default: every enabled one) is resolved as its start would be, and
 * the exact command or URL it runs is allowed for this workspace — kept in consent.json and audited
 * as a consent record by the CLI. No server is started and no call is confirmed; a changed command
 * needs allowing again.
 */
export async function runAllow(o: AllowOptions, lifecycle: Lifecycle): Promise<number> {
  const workspace = loadWorkspace(o.workspace, '');
  printProblems(workspace.problems);
  const configured = workspace.settings.servers;
  const unknown = o.servers.filter((n) => !configured.some((s) => s.name === n));
  if (unknown.length) {
    throw new UsageError(`no server named ${unknown.map((n) => `"${n}"`).join(', ')} in mcpHost.servers; servers: ${configured.map((s) => s.name).join(', ') || 'none'}`, 'allow');
  }
  const names = o.servers.length ? [...new Set(o.servers)] : configured.filter((s) => s.enabled).map((s) => s.name);
  if (names.length === 0) {
    writeStderr('mcp-host: no enabled server in mcpHost.servers: nothing to allow\n');
    return ExitCode.failure;
  }
  const prompt = new PrintingConsent();
  const host = lifecycle.track(
    createHost(workspace, {
      role: '',
      audit: o.audit,
      yes: false,
      confirmer: new DenyingConfirmer('allow makes no calls'),
      consent: prompt,
      logger: createStderrLogger(o.verbose),
    }),
  );
  const store = new FileConsentStore(workspace.dir);
  let failed = 0;
  try {
    for (const name of names) {
      const refusal = await host.admitServer(name);
      if (refusal !== undefined) {
        failed++;
        writeStderr(`mcp-host: "${name}" was not allowed: ${refusal}\n`);
      } else if (!prompt.asked.has(name)) {
        const kept = await store.get(name);
        const shown = kept ? describeIdentity(kept.identity).map((l) => `\n  ${l}`).join('') : '';
        writeStdout(`"${name}" was already allowed to start in this workspace:${shown}\n`);
      }
    }
    writeStdout(`Consent is kept in ${store.file} for ${workspace.dir}.\n`);
    return failed ? ExitCode.failure : ExitCode.ok;
  } finally {
    await lifecycle.closeHost();
  }
}
