import type { ConfirmationRequest } from '../core/calls/confirmer';
import { actorText } from '../core/audit/callActor';
import { annotationClaimsSentence } from './annotationClaims';

/** Limits that keep a modal readable whatever a model sends. */
export const CONFIRMATION_LIMITS = {
  /** Longer strings are cut. */
  stringChars: 200,
  /** Longer arrays show their first items. */
  arrayItems: 20,
  /** Deeper values are elided. */
  depth: 6,
  /** The arguments block as a whole. */
  argumentsChars: 2000,
  /** The whole detail text. */
  detailChars: 3000,
} as const;

export interface ConfirmationMessage {
  readonly message: string;
  readonly detail: string;
}

/**
 * The text of the modal that asks before a tool call: the message names the tool and its server;
 * the detail shows the arguments as pretty JSON (long values cut) and the server's annotations,
 * labelled as its own claims.
 */
export function confirmationMessage(request: ConfirmationRequest): ConfirmationMessage {
  const title = request.title && request.title !== request.tool ? ` (${oneLine(request.title, 80)})` : '';
  const message = `Allow the tool "${request.tool}"${title} of MCP server "${request.server}" to run?`;
  const lines: string[] = [];
  const asker = askerLine(request.actor);
  if (asker) lines.push(asker, '');
  if (request.rule) lines.push(...ruleLines(request.rule), '');
  if (request.name !== request.tool) lines.push(`Exposed to the model as "${request.name}".`);
  if (request.role) lines.push(`Role: ${request.role}`);
  lines.push('', 'Arguments:', formatArguments(request.args), '', annotationClaimsSentence(request.annotations));
  lines.push(
    request.rule
      ? `MCP Host asks because of the rule above (${request.rule.setting}), not because of these claims.`
      : 'MCP Host asks because of its own settings (mcpHost.confirm / mcpHost.autoApprove), not because of these claims.',
  );
  return { message, detail: cap(lines.join('\n'), CONFIRMATION_LIMITS.detailChars) };
}

/** Who asks when it is not the model: an app's view (which one, opened for which tool) or a gateway client. */
function askerLine(actor: ConfirmationRequest['actor']): string | undefined {
  if (!actor || actor.kind === 'model') return undefined;
  if (actor.kind === 'app') {
    return `Asked by the app view ${actor.view} of MCP server "${actor.server}"${actor.tool ? ` (the view of its tool "${actor.tool}")` : ''}, not by the model.`;
  }
  return `Asked by ${actorText(actor)}, not by the model.`;
}

/** Why an argument rule asks: its reason and where it is written (with its index), and a failure if that is why. */
export function ruleLines(rule: NonNullable<ConfirmationRequest['rule']>): string[] {
  const lines = [`Asked because of rule ${rule.setting}: ${oneLine(rule.reason, 200)}`];
  if (rule.error) lines.push(`(the rule could not decide, so it asks: ${oneLine(rule.error, 300)})`);
  return lines;
}

/** Pretty JSON of the arguments with long strings, long arrays and deep nesting cut. */
export function formatArguments(args: Record<string, unknown>): string {
  if (Object.keys(args).length === 0) return '(none)';
  const text = JSON.stringify(shorten(args, 0), null, 2) ?? '(none)';
  return cap(text, CONFIRMATION_LIMITS.argumentsChars, `\n… (arguments cut: ${text.length} characters in total)`);
}

function shorten(value: unknown, depth: number): unknown {
  const L = CONFIRMATION_LIMITS;
  if (typeof value === 'string') {
    return value.length > L.stringChars ? `${value.slice(0, L.stringChars)}… (${value.length - L.stringChars} more characters)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= L.depth) return Array.isArray(value) ? `[… ${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, L.arrayItems).map((v) => shorten(v, depth + 1));
    if (value.length > L.arrayItems) items.push(`… ${value.length - L.arrayItems} more items`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shorten(v, depth + 1);
  return out;
}

function cap(text: string, max: number, suffix = '\n…'): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - suffix.length)) + suffix;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
