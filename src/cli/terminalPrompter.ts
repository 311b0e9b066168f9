import { openWithBrowserCommand } from '../core/auth/browserCommand';
import type { FormField } from '../core/requests/elicitationForm';
import type { ElicitationContext, ElicitationPrompter, FormAnswer, FormQuestion, UrlAnswer, UrlQuestion } from '../core/requests/elicitationPrompter';
import { fieldInputHint, fieldInputText, parseFieldInput } from '../core/requests/formFieldInput';
import type { TerminalStreams } from './terminalConfirmer';
import { TerminalLines } from './terminalLines';

/**
 * Puts a server's question to the person at the terminal: which server asks and why, then one
 * prompt per field (defaults in brackets: Enter keeps them; a bad value is explained and asked
 * again). End of input is a decline. A URL is shown in full and opened with `$BROWSER` only
 * after a yes (without `$BROWSER` it is printed for the user to open).
 */
export class TerminalPrompter implements ElicitationPrompter {
  constructor(
    private readonly streams: TerminalStreams = { input: process.stdin, output: process.stderr },
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async askForm(q: FormQuestion, signal: AbortSignal): Promise<FormAnswer> {
    const out = this.streams.output;
    out.write(header(q, 'asks you for information'));
    out.write(`  fields: ${q.form.fields.map((f) => `${f.label}${f.required ? ' *' : ''}`).join(', ')}   (* required)\n`);
    const lines = new TerminalLines(this.streams, signal);
    try {
      const start = await lines.ask('Answer? [y]es, fill in / [n]o, decline / [c]ancel: ');
      if (start === undefined || /^(n|no)$/i.test(start.trim())) return { action: 'decline' };
      if (!/^(y|yes)$/i.test(start.trim())) return { action: 'cancel' };
      const content: Record<string, unknown> = {};
      for (const field of q.form.fields) {
        const value = await this.askField(lines, q, field);
        if (value === END) return { action: 'decline' };
        if (value !== undefined) content[field.name] = value;
      }
      return { action: 'accept', content };
    } finally {
      lines.close();
    }
  }

  async askUrl(q: UrlQuestion, signal: AbortSignal): Promise<UrlAnswer> {
    this.streams.output.write(header(q, 'asks you to open a web page') + `  Site: ${q.origin}\n  URL: ${q.url}\n`);
    const lines = new TerminalLines(this.streams, signal);
    try {
      const answer = await lines.ask('Open this URL? [y/N] ');
      return { action: answer !== undefined && /^(y|yes)$/i.test(answer.trim()) ? 'accept' : 'decline' };
    } finally {
      lines.close();
    }
  }

  async openUrl(url: string): Promise<void> {
    const browser = this.env.BROWSER?.trim();
    if (browser) await openWithBrowserCommand(browser, url, this.env);
    else this.streams.output.write(`mcp-host: open this URL in your browser: ${url}\n`);
  }

  /** One field until its value is valid; undefined leaves it out; END: input ended. */
  private async askField(lines: TerminalLines, q: FormQuestion, field: FormField): Promise<unknown> {
    const shown = field.secret ? '' : fieldInputText(field, field.default);
    const prompt =
      `  ${field.label}${field.required ? ' *' : ''}` +
      `${field.description ? ` — ${oneLine(field.description)}` : ''} (${fieldInputHint(field)}${field.secret ? ', not shown' : ''})` +
      `${shown ? ` [${shown}]` : ''}: `;
    for (;;) {
      const typed = await lines.ask(prompt, field.secret);
      if (typed === undefined) return END;
      const parsed = parseFieldInput(field, typed);
      const value = parsed.ok ? (parsed.value ?? field.default) : undefined;
      const error = parsed.ok ? q.form.fieldError(field.name, value) : parsed.error;
      if (!error) return value;
      this.streams.output.write(`    ${error}\n`);
    }
  }
}

const END = Symbol('end of input');

function header(q: ElicitationContext, what: string): string {
  const lines = ['', `mcp-host: server "${q.server}" ${what}${q.duringCall.length ? ` (during its tool call ${q.duringCall.join(', ')})` : ''}`];
  if (q.role) lines.push(`  role:    ${q.role}`);
  lines.push(`  message (from the server): ${oneLine(q.message)}`);
  return lines.join('\n') + '\n';
}

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
