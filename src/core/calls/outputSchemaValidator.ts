import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Tool } from '@modelcontextprotocol/client';
import { compileSchema } from '../tools/jsonSchemaCompilers';

export type OutputCheck = { ok: true } | { ok: false; error: string };

/** Most validators kept; a long session with many changing definitions does not grow for ever. */
const MAX_CACHED = 2000;

/**
 * Checks a result's `structuredContent` against the `outputSchema` of the tool definition in force,
 * for tools of every `tools/list` page (the SDK keeps only the last page's validators and throws
 * the whole result away on a mismatch). Validators are compiled once per definition hash.
 */
export class OutputSchemaValidator {
  private readonly cache = new Map<string, ValidateFunction | Error>();

  /** `structuredContent` (an object, or undefined) against the tool's outputSchema. */
  check(tool: Tool, definitionHash: string, structuredContent: Record<string, unknown> | undefined, isError: boolean): OutputCheck {
    const schema = tool.outputSchema as Record<string, unknown> | undefined;
    if (!schema || isError) return { ok: true };
    if (structuredContent === undefined) {
      return { ok: false, error: `tool "${tool.name}" has an output schema but returned no structuredContent` };
    }
    let fn = this.cache.get(definitionHash);
    if (!fn) {
      fn = compileSchema(schema);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(definitionHash, fn);
    }
    if (fn instanceof Error) return { ok: false, error: `the output schema of tool "${tool.name}" cannot be compiled: ${fn.message}` };
    if (fn(structuredContent)) return { ok: true };
    return { ok: false, error: `structuredContent does not match the tool's output schema: ${(fn.errors ?? []).map(formatError).join('; ')}` };
  }
}

function formatError(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'structuredContent';
  return `${where} ${e.message ?? 'is invalid'}`;
}
