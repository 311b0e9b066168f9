import type { Client } from '@modelcontextprotocol/client';
import { isPlainObject } from '../settings/isPlainObject';
import type { TransportKind } from './serverTransport';

/** The schema extension of protocol 2026-07-28 that mirrors an argument into an `Mcp-Param-<name>` HTTP header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** RFC 9110 §5.1 `token`: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The property types whose value can be mirrored (`number` is excluded by the spec). */
const MIRRORED_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are not reachable through `properties` alone: an annotation there is invalid. */
const UNREACHABLE = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
/** Of those, the ones whose value maps names to subschemas. */
const NAMED = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

export interface HeaderAnnotations {
  /** How many properties declare a header (0: calls carry no `Mcp-Param-*` header). */
  readonly count: number;
  /** Why the declarations are invalid (the tool cannot be called over Streamable HTTP), or undefined. */
  readonly problem?: string;
}

/**
 * The `x-mcp-header` declarations of a tool's `inputSchema`, checked against the 2026-07-28 rules
 * (Streamable HTTP, "Schema Extension"): only on a property reached through a chain of `properties`
 * (not the root, not under items, combinators, conditionals or definitions), a non-empty RFC 9110
 * token, on a string, integer or boolean property, unique regardless of case. The SDK client
 * applies the same rules when it lists tools itself, but does not export them: the host lists
 * tools leniently (tool by tool), so it checks them here; the SDK still does the mirroring.
 */
export function headerAnnotations(inputSchema: unknown): HeaderAnnotations {
  const seen = new Map<string, string>();
  let count = 0;
  const visit = (node: unknown, at: readonly string[], reachable: boolean): string | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (X_MCP_HEADER in node) {
      const where = at.length ? `property "${at.join('.')}"` : 'the schema root';
      if (!reachable || at.length === 0) return `${where} declares ${X_MCP_HEADER}, which is allowed only on properties reached through "properties"`;
      const name = node[X_MCP_HEADER];
      if (typeof name !== 'string' || name === '') return `${where}: ${X_MCP_HEADER} must be a non-empty string`;
      if (!TOKEN.test(name)) return `${where}: ${X_MCP_HEADER} ${JSON.stringify(name)} is not a valid HTTP header name`;
      const type = typeof node.type === 'string' ? node.type : undefined;
      if (!type || !MIRRORED_TYPES.has(type)) return `${where}: ${X_MCP_HEADER} is allowed only on string, integer or boolean properties (got ${type ?? 'no "type"'})`;
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `${X_MCP_HEADER} ${JSON.stringify(name)} is declared twice (also as ${JSON.stringify(earlier)})`;
      seen.set(name.toLowerCase(), name);
      count++;
    }
    if (isPlainObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const problem = visit(child, [...at, key], reachable);
        if (problem) return problem;
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches: unknown[] = Array.isArray(sub) ? sub : NAMED.has(keyword) && isPlainObject(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const problem = visit(branch, [...at, `<${keyword}>`], false);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  const problem = visit(inputSchema, [], true);
  return problem ? { count, problem } : { count };
}

/**
 * Whether calls on this connection carry `Mcp-Param-*` headers: 2026-07-28 over Streamable HTTP. Only
 * there a tool with invalid declarations is left out (the spec's rule for HTTP clients); over stdio
 * nothing is mirrored and such a tool is callable.
 */
export function mirrorsHeaders(client: Client, kind: TransportKind): boolean {
  return client.getProtocolEra() === 'modern' && kind === 'streamableHttp';
}
