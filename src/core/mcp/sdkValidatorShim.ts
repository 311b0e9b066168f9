import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { newSchemaEngine } from '../tools/jsonSchemaCompilers';
import { loadAjv2019 } from '../tools/loadAjv2019';

/**
 * What the bundles load in place of `@modelcontextprotocol/client/_shims` (esbuild.js, plugin
 * one-ajv): the SDK's Node shim re-exports its AjvJsonSchemaValidator, built on a copy of ajv the
 * SDK bundles (150 KB), next to the ajv the host bundles anyway. This is the same validator on the
 * host's ajv. It adapts an SDK internal: test/unit/core/mcp/sdkValidatorShim.contract.test.ts
 * compares it with the SDK's own shim and fails when an upgrade changes what the shim exports or
 * what its validator accepts.
 */

/** Whether `fetch()` may throw a TypeError because of CORS: never in Node. */
export const CORS_IS_POSSIBLE = false;

const DRAFT_2020_12 = new Set(['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft/2020-12/schema']);
const DRAFT_2019_09 = new Set(['https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft/2019-09/schema']);
const DRAFT_07_06 = new Set([
  'https://json-schema.org/draft-07/schema',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-06/schema',
  'http://json-schema.org/draft-06/schema',
]);

/** The engine-like object a caller may pass: used for every schema, whatever its `$schema`. */
type Engine = Pick<Ajv, 'compile' | 'getSchema' | 'errorsText'>;

/**
 * The SDK's default JSON Schema validator (`AjvJsonSchemaValidator`): the schema's declared dialect
 * picks the engine (no `$schema` or 2020-12: Ajv2020; 2019-09: Ajv2019; draft-07 or -06: the
 * classic Ajv; any other: an Error), each engine made on first use; a schema with a string `$id`
 * is compiled once per engine. A caller's engine is used for every schema.
 */
export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  private _ajv: Engine | undefined;
  private _ajvDraft7: Engine | undefined;
  private _ajv2019: Engine | undefined;
  private readonly _userAjv: boolean;

  constructor(ajv?: Engine) {
    this._userAjv = ajv !== undefined;
    this._ajv = ajv;
  }

  /** The 2020-12 engine (or the caller's), made on first use. */
  get ajv(): Engine {
    return (this._ajv ??= newSchemaEngine(Ajv2020));
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const engine = this.engineFor(schema as Record<string, unknown>);
    const id = (schema as Record<string, unknown>).$id;
    const validate = typeof id === 'string' ? (engine.getSchema(id) ?? engine.compile(schema)) : engine.compile(schema);
    return (input) =>
      validate(input) ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) };
  }

  private engineFor(schema: Record<string, unknown>): Engine {
    if (this._userAjv) return this.ajv;
    const dialect = declaredDialect(schema);
    if (dialect === '2020-12') return this.ajv;
    if (dialect === '2019-09') return (this._ajv2019 ??= loadAjv2019().newAjv2019Engine());
    return (this._ajvDraft7 ??= newSchemaEngine(Ajv));
  }
}

function declaredDialect(schema: Record<string, unknown>): '2020-12' | '2019-09' | 'draft-7' {
  if (typeof schema.$schema !== 'string') return '2020-12';
  const declared = schema.$schema.replace(/#$/, '');
  if (DRAFT_2020_12.has(declared)) return '2020-12';
  if (DRAFT_2019_09.has(declared)) return '2019-09';
  if (DRAFT_07_06.has(declared)) return 'draft-7';
  throw new Error(
    `JSON Schema declares an unsupported dialect ("$schema": "${schema.$schema.slice(0, 200)}"). The default validator supports JSON Schema 2020-12, ` +
      '2019-09, draft-07, and draft-06; pass a pre-configured Ajv instance to AjvJsonSchemaValidator(ajv) to validate other dialects.',
  );
}
