import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Tool } from '@modelcontextprotocol/client';
import { compileSchema } from '../tools/jsonSchemaCompilers';

export type ValidationResult = { ok: true } | { ok: false; errors: readonly string[] };

/** A call's arguments as checked: `args` are what goes on (`dropped`: the `null`s read as not given). */
export type CallValidation = { ok: true; args: Record<string, unknown>; dropped: readonly string[] } | { ok: false; errors: readonly string[] };

/**
 * Checks tool-call arguments against the tool's `inputSchema` before the server sees them, so a
 * malformed call costs one model round instead of a server error. Validators are cached per
 * definition hash; a schema that cannot be compiled is not enforced (the server still validates).
 */
export class ArgumentValidator {
  private readonly cache = new Map<string, ValidateFunction | Error>();

  constructor(private readonly onSchemaError?: (tool: string, error: string) => void) {}

  validate(tool: Tool, definitionHash: string, args: unknown): ValidationResult {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return { ok: false, errors: [`arguments must be a JSON object, got ${describe(args)}`] };
    }
    let fn = this.cache.get(definitionHash);
    if (!fn) {
      fn = compileSchema(tool.inputSchema as Record<string, unknown>);
      if (fn instanceof Error) this.onSchemaError?.(tool.name, fn.message);
      this.cache.set(definitionHash, fn);
    }
    if (fn instanceof Error) return { ok: true };
    if (fn(args)) return { ok: true };
    return { ok: false, errors: (fn.errors ?? []).map(formatError) };
  }

  /**
   * `validate` for a call: a top-level `null` given for a property the schema does not require is
   * read as the property not given (models write `null` for "none"; a header-mirrored parameter
   * that is null is omitted, SEP-2243), but only when that alone makes the arguments valid.
   * Arguments valid as given are never changed; otherwise the errors are those of the given ones.
   */
  validateCall(tool: Tool, definitionHash: string, args: Record<string, unknown>): CallValidation {
    const first = this.validate(tool, definitionHash, args);
    if (first.ok) return { ok: true, args, dropped: [] };
    const required = new Set(Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : []);
    const dropped = Object.keys(args).filter((k) => args[k] === null && !required.has(k));
    if (!dropped.length) return first;
    const without = Object.fromEntries(Object.entries(args).filter(([k]) => !dropped.includes(k)));
    return this.validate(tool, definitionHash, without).ok ? { ok: true, args: without, dropped } : first;
  }
}

function formatError(e: ErrorObject): string {
  const where = e.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'arguments';
  switch (e.keyword) {
    case 'required':
      return `missing required property "${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties':
      return `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}" in ${where}`;
    case 'enum':
      return `${where} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return `${where} ${e.message ?? 'is invalid'}`;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}
