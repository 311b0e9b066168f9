import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';

/** JSON with object keys sorted, so equal definitions hash equally whatever the server's key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** sha256 of the tool definition in force; recorded with every audited call. */
export function definitionHash(tool: Tool): string {
  return createHash('sha256').update(canonicalJson(tool)).digest('hex');
}
