import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The host's JSON Schema engines (draft-07 and 2020-12, with formats), shared by the argument and
 * the output validators and by the check of tool definitions. Created on first use.
 */
let draft7: Ajv | undefined;
let draft2020: Ajv | undefined;

/** An ajv engine class: the draft-07 `Ajv`, `Ajv2019` or `Ajv2020`. */
export type SchemaEngineClass = new (options: ConstructorParameters<typeof Ajv>[0]) => Ajv;

/**
 * A new engine of the host's kind: every error reported, unknown keywords and formats tolerated,
 * the schema itself not checked against its meta-schema, and the formats of ajv-formats checked.
 */
export function newSchemaEngine(Engine: SchemaEngineClass): Ajv {
  const ajv = new Engine({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** The engine for a schema: 2020-12 when its `$schema` says so, draft-07 otherwise. */
export function schemaEngine(schema: Record<string, unknown>): Ajv {
  if (typeof schema.$schema === 'string' && schema.$schema.includes('2020-12')) {
    return (draft2020 ??= newSchemaEngine(Ajv2020));
  }
  return (draft7 ??= newSchemaEngine(Ajv));
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
