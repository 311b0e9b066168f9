/** The JSON-lines protocol of `mcp-host session`: one request per stdin line. */
import { z } from 'zod';
import { isPlainObject } from '../core/settings/isPlainObject';

export type RequestId = string | number | null;

export type SessionRequest =
  /** `query`: what the model is asked to do, to rank the tools by when the role is over its budget; `all`: every tool, regardless of the budget. */
  | { readonly op: 'tools'; readonly id: RequestId; readonly query?: string; readonly all?: boolean }
  | { readonly op: 'servers'; readonly id: RequestId }
  | { readonly op: 'call'; readonly id: RequestId; readonly name: string; readonly args?: unknown }
  | { readonly op: 'refresh'; readonly id: RequestId; readonly server?: string }
  | { readonly op: 'role'; readonly id: RequestId; readonly name: string | null }
  | ServerRequestAnswer
  | CatalogRequest;

/** The driver's answer to an `elicitation` or `sampling` event (its `request` id). */
export interface ServerRequestAnswer {
  readonly op: 'elicitation' | 'sampling';
  readonly id: RequestId;
  readonly request: string;
  readonly action: 'accept' | 'decline' | 'cancel';
  /** elicitation (form) accept: the values; fields left out get their defaults. */
  readonly content?: Record<string, unknown>;
  /** sampling accept: the model's answer, the model's name, why it stopped. */
  readonly text?: string;
  readonly model?: string;
  readonly stopReason?: string;
}

/** Resources and prompts (sessionCatalogOps.ts). */
export type CatalogRequest =
  | { readonly op: 'resources'; readonly id: RequestId }
  | { readonly op: 'read'; readonly id: RequestId; readonly server: string; readonly uri: string; readonly subscribe?: boolean }
  | { readonly op: 'unsubscribe'; readonly id: RequestId; readonly server: string; readonly uri: string }
  | { readonly op: 'prompts'; readonly id: RequestId }
  | { readonly op: 'prompt'; readonly id: RequestId; readonly server: string; readonly name: string; readonly args?: Record<string, string> }
  | {
      readonly op: 'complete';
      readonly id: RequestId;
      readonly server: string;
      readonly prompt?: string;
      readonly template?: string;
      readonly argument: { readonly name: string; readonly value: string };
      readonly context?: Record<string, string>;
    };

export type ParsedLine =
  | { readonly ok: true; readonly request: SessionRequest }
  | { readonly ok: false; readonly id: RequestId; readonly error: string };

export const OPS = ['tools', 'servers', 'call', 'refresh', 'role', 'elicitation', 'sampling', 'resources', 'read', 'unsubscribe', 'prompts', 'prompt', 'complete'] as const;

const CALL_NEEDS_NAME = '"call" needs "name", the tool name (a non-empty string)';

/** What every line must be: an object whose "id", if any, can be echoed back. */
const envelopeSchema = z.looseObject(
  {
    id: z.union([z.string(), z.number()], { error: (issue) => `"id" must be a string or a number, got ${kind(issue.input)}` }).nullish(),
  },
  { error: (issue) => `expected a JSON object like {"id":1,"op":"tools"}, got ${kind(issue.input)}` },
);

/** `"request"` and `"action"` of an answer to a server's question. */
const answerFields = (op: 'elicitation' | 'sampling') => ({
  request: z.string({ error: () => `"${op}" needs "request": the id of the ${op} event it answers` }).min(1, `"request" must not be empty`),
  action: z.enum(['accept', 'decline', 'cancel'], { error: () => '"action" must be "accept", "decline" or "cancel"' }),
});
const optionalText = (name: string) => z.string({ error: (issue) => `"${name}" must be a string, got ${kind(issue.input)}` }).optional();
function needs(op: string, field: string, what: string) {
  return z.string({ error: () => `"${op}" needs "${field}", ${what}` }).min(1, `"${op}" needs "${field}", ${what}`);
}

const stringMap = (field: string) => z.record(z.string(), z.string(), { error: () => `"${field}" must be an object of string values` });

const catalogRequestSchemas = [
  z.object({ op: z.literal('resources') }),
  z.object({
    op: z.literal('read'),
    server: needs('read', 'server', 'a server name'),
    uri: needs('read', 'uri', 'the resource URI'),
    subscribe: z.boolean({ error: () => '"subscribe" must be true or false' }).optional(),
  }),
  z.object({ op: z.literal('unsubscribe'), server: needs('unsubscribe', 'server', 'a server name'), uri: needs('unsubscribe', 'uri', 'the resource URI') }),
  z.object({ op: z.literal('prompts') }),
  z.object({ op: z.literal('prompt'), server: needs('prompt', 'server', 'a server name'), name: needs('prompt', 'name', 'the prompt name'), args: stringMap('args').optional() }),
  z
    .object({
      op: z.literal('complete'),
      server: needs('complete', 'server', 'a server name'),
      prompt: z.string().optional(),
      template: z.string().optional(),
      argument: z.object({ name: z.string(), value: z.string() }, { error: () => '"complete" needs "argument": {"name","value"}' }),
      context: stringMap('context').optional(),
    })
    .refine((r) => (r.prompt === undefined) !== (r.template === undefined), { message: '"complete" needs either "prompt" (a prompt name) or "template" (a URI template)' }),
] as const;

/** The requests by "op"; other fields of a line are ignored. */
const requestSchema = z.discriminatedUnion(
  'op',
  [
    z.object({
      op: z.literal('tools'),
      query: z.string({ error: (issue) => `"query" must be a string (what the model is asked to do), got ${kind(issue.input)}` }).optional(),
      all: z.boolean({ error: (issue) => `"all" must be true or false, got ${kind(issue.input)}` }).optional(),
    }),
    z.object({ op: z.literal('servers') }),
    z.object({
      op: z.literal('call'),
      name: z.string({ error: () => CALL_NEEDS_NAME }).min(1, CALL_NEEDS_NAME),
      args: z.unknown().optional(),
    }),
    z.object({
      op: z.literal('refresh'),
      server: z.string({ error: (issue) => `"server" must be a server name, got ${kind(issue.input)}` }).optional(),
    }),
    z.object({
      op: z.literal('role'),
      // "" means no role, like null.
      name: z
        .string({
          error: (issue) =>
            issue.input === undefined ? '"role" needs "name": a role name, or null for no role' : `"name" must be a role name or null, got ${kind(issue.input)}`,
        })
        .nullable()
        .transform((name) => name || null),
    }),
    z.object({
      op: z.literal('elicitation'),
      ...answerFields('elicitation'),
      content: z.record(z.string(), z.unknown(), { error: (issue) => `"content" must be an object of field values, got ${kind(issue.input)}` }).optional(),
    }),
    z.object({ op: z.literal('sampling'), ...answerFields('sampling'), text: optionalText('text'), model: optionalText('model'), stopReason: optionalText('stopReason') }),
    ...catalogRequestSchemas,
  ],
  {
    error: (issue) => {
      const op = (issue.input as { op?: unknown } | undefined)?.op;
      return op === undefined ? `missing "op"; ops: ${OPS.join(', ')}` : `unknown op ${JSON.stringify(op)}; ops: ${OPS.join(', ')}`;
    },
  },
);

/**
 * Parse one line. A line that is not a JSON object, or has an unusable id, is answered with id
 * null; a line with a usable id but a bad op or fields is answered with that id.
 */
export function parseRequestLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, id: null, error: `not valid JSON: ${(e as Error).message}` };
  }
  const call = wellFormedCall(value);
  if (call) return { ok: true, request: call };
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { ok: false, id: null, error: envelope.error.issues[0].message };
  const id: RequestId = envelope.data.id ?? null;
  const request = requestSchema.safeParse(value);
  if (!request.success) return { ok: false, id, error: request.error.issues[0].message };
  return { ok: true, request: { ...request.data, id } };
}

/**
 * A well-formed "call" line, read without the schemas: what they would give for it (the same keys),
 * at a fraction of the cost on the line every tool call of a session takes. Anything else
 * (another op, a missing or bad field, a bad id) is undefined and goes through the schemas.
 */
function wellFormedCall(value: unknown): SessionRequest | undefined {
  if (!isPlainObject(value) || value.op !== 'call') return undefined;
  const { id, name } = value;
  if (typeof name !== 'string' || name === '') return undefined;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') return undefined;
  return 'args' in value ? { op: 'call', name, args: value.args, id: id ?? null } : { op: 'call', name, id: id ?? null };
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
