import * as readline from 'node:readline';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '../core/calls/confirmer';

export interface TerminalStreams {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/**
 * Asks y/N on the terminal (prompt on stderr, answer from stdin). Anything but y/yes is a denial,
 * and so is end of input or an aborted call: failing to ask is never consent.
 */
export class TerminalConfirmer implements Confirmer {
  constructor(private readonly streams: TerminalStreams = { input: process.stdin, output: process.stderr }) {}

  async confirm(request: ConfirmationRequest, signal?: AbortSignal): Promise<ConfirmationAnswer> {
    if (signal?.aborted) return 'deny';
    this.streams.output.write(formatConfirmation(request));
    const answer = await this.ask('Run this call? [y/N] ', signal);
    return answer !== undefined && /^(y|yes)$/i.test(answer.trim()) ? 'once' : 'deny';
  }

  private ask(question: string, signal?: AbortSignal): Promise<string | undefined> {
    return new Promise((resolve) => {
      const rl = readline.createInterface({ input: this.streams.input, output: this.streams.output, terminal: false });
      let done = false;
      const finish = (value: string | undefined) => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', onAbort);
        rl.close();
        resolve(value);
      };
      const onAbort = () => {
        this.streams.output.write('\n(cancelled)\n');
        finish(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.once('close', () => finish(undefined));
      rl.question(question, (a) => finish(a));
    });
  }
}

/** The text shown before the y/N question. */
export function formatConfirmation(r: ConfirmationRequest): string {
  const lines: string[] = ['', 'mcp-host: this tool call needs your confirmation'];
  lines.push(`  tool:       ${r.name}${r.title ? ` (${r.title})` : ''}`);
  lines.push(`  server:     ${r.server} (its tool "${r.tool}")`);
  if (r.role) lines.push(`  role:       ${r.role}`);
  if (r.rule) {
    lines.push(`  rule:       ${r.rule.setting}: ${oneLine(r.rule.reason, 200)}`);
    if (r.rule.error) lines.push(`              (it could not decide, so it asks: ${oneLine(r.rule.error, 300)})`);
  }
  if (r.description) lines.push(`  description (from the server): ${oneLine(r.description, 200)}`);
  lines.push('  arguments:');
  lines.push(indent(JSON.stringify(r.args, null, 2), '    '));
  const claims = Object.entries(r.annotations ?? {}).filter(([, v]) => v !== undefined);
  if (claims.length) {
    lines.push("  the server's own claims about this tool (annotations; not verified, the host's settings decide what is asked):");
    for (const [k, v] of claims) lines.push(`    ${k}: ${JSON.stringify(v)}`);
  } else {
    lines.push("  the server's own claims about this tool (annotations): none");
  }
  return lines.join('\n') + '\n';
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
