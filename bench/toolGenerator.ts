/**
 * Deterministic, realistic MCP tool lists for the registry benchmark: verb_noun names (some with
 * characters that need sanitizing), ~200-character descriptions, nested object input schemas with
 * enums, arrays, formats, defaults and descriptions, annotations, and an outputSchema on a third.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { prng } from './stats';

const VERBS = ['get', 'list', 'search', 'create', 'update', 'delete', 'archive', 'export', 'sync', 'approve'];
const NOUNS = ['order', 'customer', 'invoice', 'ticket', 'shipment', 'product', 'repository', 'issue', 'deployment', 'report', 'user', 'document'];
const STATUSES = ['open', 'pending', 'in_progress', 'blocked', 'resolved', 'closed', 'cancelled'];
const WORDS =
  'returns the matching records with their identifiers timestamps owners and current status; results are paginated and sorted by the given field, filters combine with AND, unknown fields are ignored and dates use ISO 8601 in UTC'.split(' ');

function sentence(rand: () => number, chars: number): string {
  const out: string[] = [];
  let len = 0;
  while (len < chars) {
    const w = WORDS[Math.floor(rand() * WORDS.length)];
    out.push(w);
    len += w.length + 1;
  }
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function inputSchema(rand: () => number, noun: string): Record<string, unknown> {
  const statuses = STATUSES.slice(0, 3 + Math.floor(rand() * 4));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      [`${noun}Id`]: { type: 'string', description: `Identifier of the ${noun}, as returned by list_${noun}.`, pattern: '^[A-Za-z0-9_-]{4,64}$' },
      filter: {
        type: 'object',
        description: `Which ${noun} records to include.`,
        properties: {
          status: { type: 'string', enum: statuses, description: 'Only records in this status.' },
          createdAfter: { type: 'string', format: 'date-time', description: 'Only records created after this time.' },
          owner: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              team: { type: 'string', enum: ['platform', 'payments', 'support', 'growth'] },
            },
            additionalProperties: false,
          },
          tags: { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 10 },
        },
        additionalProperties: false,
      },
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 25, description: 'Maximum number of records to return.' },
      sort: { type: 'string', enum: ['created', 'updated', 'priority', 'name'], default: 'updated' },
      order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      ...(rand() < 0.5
        ? { fields: { type: 'array', items: { type: 'string', enum: ['id', 'status', 'owner', 'created', 'updated', 'total'] }, uniqueItems: true } }
        : { dryRun: { type: 'boolean', default: false, description: 'Validate only; change nothing.' } }),
    },
    required: [`${noun}Id`],
    additionalProperties: false,
  };
}

export function generateTools(serverIndex: number, count: number): Tool[] {
  const rand = prng(0x5eed + serverIndex * 7919);
  const tools: Tool[] = [];
  for (let i = 0; i < count; i++) {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    // Every 25th name has characters a model API refuses (sanitized by the registry).
    const name = i % 25 === 7 ? `${verb}.${noun}/v${i}` : `${verb}_${noun}_${i}`;
    const destructive = verb === 'delete' || verb === 'archive';
    const tool: Record<string, unknown> = {
      name,
      title: `${verb[0].toUpperCase()}${verb.slice(1)} ${noun} #${i}`,
      description: sentence(rand, 190 + Math.floor(rand() * 20)),
      inputSchema: inputSchema(rand, noun),
      annotations: { readOnlyHint: verb === 'get' || verb === 'list' || verb === 'search', destructiveHint: destructive, idempotentHint: !destructive, openWorldHint: false },
    };
    if (i % 3 === 0) {
      tool.outputSchema = {
        type: 'object',
        properties: { total: { type: 'integer' }, items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: STATUSES } } } } },
        required: ['total'],
      };
    }
    tools.push(tool as unknown as Tool);
  }
  return tools;
}

/** A fresh copy, as a tools/list response parsed off the wire would be. */
export function wireCopy(tools: readonly Tool[]): Tool[] {
  return JSON.parse(JSON.stringify(tools)) as Tool[];
}
