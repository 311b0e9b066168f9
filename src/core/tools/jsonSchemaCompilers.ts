import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The host's JSON Schema engines (draft-07 and 2020-12, with formats), shared by the argument and
 * the output validators and by the check of tool definitions. Created on first use.
 */
let draft7: Ajv | undefined;
let draft2020: Ajv | undefined;

function withFormats<T extends Ajv>(ajv: T): T {
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** The engine for a schema: 2020-12 when its `$schema` says so, draft-07 otherwise. */
export function schemaEngine(schema: Record<string, unknown>): Ajv {
  if (typeof schema.$schema === 'string' && schema.$schema.includes('2020-12')) {
    return (draft2020 ??= withFormats(new Ajv2020({ allErrors: true, strict: false, validateSchema: false })));
  }
  return (draft7 ??= withFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false })));
}

/**
 * Compile `schema`; an Error when it cannot be compiled. The engine forgets the schema afterwards
 * (the function keeps working): it would otherwise keep every schema ever compiled, and refuse a
 * second schema with the same `$id`. Callers cache the functions they need.
 */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction | Error {
  const ajv = schemaEngine(schema);
  try {
    return ajv.compile(schema);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  } finally {
    try {
      ajv.removeSchema(schema);
    } catch {
      // not added
    }
  }
}

/** Undefined when `schema` is a valid JSON Schema (checked against its meta-schema); otherwise why not. */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  const ajv = schemaEngine(schema);
  try {
    if (ajv.validateSchema(schema)) return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return ajv.errorsText(ajv.errors, { dataVar: 'schema' });
}
