/**
 * The bundles load src/core/mcp/sdkValidatorShim.ts (and sdkServerShim.ts) in place of the SDK's
 * `@modelcontextprotocol/client/_shims` and `@modelcontextprotocol/server/_shims` (esbuild.js, plugin
 * one-ajv), so the SDK's default JSON Schema validator runs on the host's ajv instead of the copy the
 * SDK bundles. Unbundled, as here, the SDK's own shims load: an SDK upgrade that changes what a shim
 * exports, or what its validator accepts, refuses or throws for, fails here.
 */
import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import * as ours from '../../../../src/core/mcp/sdkValidatorShim';
import * as oursServer from '../../../../src/core/mcp/sdkServerShim';

interface Validator {
  getValidator(schema: Record<string, unknown>): (input: unknown) => { valid: boolean; data: unknown; errorMessage: string | undefined };
}
type ValidatorClass = new (ajv?: unknown) => Validator;

// The SDK's shims exactly as the SDK's own code imports them (the package's "node" condition).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkClient = require('@modelcontextprotocol/client/_shims') as Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkServer = require('@modelcontextprotocol/server/_shims') as Record<string, unknown>;

const names = (m: object) => Object.keys(m).filter((k) => k !== '__esModule' && k !== 'default').sort();
const SDK = sdkClient.DefaultJsonSchemaValidator as ValidatorClass;
const OURS = ours.DefaultJsonSchemaValidator as unknown as ValidatorClass;

const D2020 = 'https://json-schema.org/draft/2020-12/schema';
const D2019 = 'https://json-schema.org/draft/2019-09/schema';
const D07 = 'http://json-schema.org/draft-07/schema#';
const D06 = 'http://json-schema.org/draft-06/schema';

/** Schemas whose verdicts differ between dialects, with inputs on both sides of each keyword. */
const TABLE: { name: string; schema: Record<string, unknown>; inputs: unknown[] }[] = [
  {
    name: 'no $schema (2020-12): prefixItems and items:false',
    schema: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    inputs: [['a'], ['a', 1], [1], []],
  },
  {
    name: '2020-12: unevaluatedProperties and required',
    schema: { $schema: D2020, type: 'object', properties: { a: { type: 'integer', minimum: 1 } }, required: ['a'], unevaluatedProperties: false },
    inputs: [{ a: 1 }, { a: 0 }, {}, { a: 1, b: 2 }, { a: 'x' }],
  },
  {
    name: '2020-12 with a trailing #: $dynamicRef',
    schema: { $schema: `${D2020}#`, $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } },
    inputs: [{}, { next: {} }, { next: 3 }],
  },
  {
    name: '2019-09: items as a list, additionalItems, $recursiveRef',
    schema: { $schema: D2019, $recursiveAnchor: true, type: 'array', items: [{ type: 'string' }], additionalItems: { $recursiveRef: '#' } },
    inputs: [['a'], ['a', ['b']], ['a', 1], [1]],
  },
  {
    name: 'draft-07: items as a list, additionalItems, if/then',
    schema: { $schema: D07, type: 'array', items: [{ type: 'number' }], additionalItems: false, if: { minItems: 1 }, then: { items: [{ minimum: 0 }] } },
    inputs: [[1], [1, 2], [-1], ['x'], []],
  },
  {
    name: 'draft-06: exclusiveMinimum as a number',
    schema: { $schema: D06, type: 'number', exclusiveMinimum: 0 },
    inputs: [1, 0, -1, 'x'],
  },
  {
    name: 'formats of ajv-formats, and formatMaximum',
    schema: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, when: { type: 'string', format: 'date-time' }, day: { type: 'string', format: 'date', formatMaximum: '2020-01-01' } },
    },
    inputs: [{ email: 'a@b.example' }, { email: 'nope' }, { when: '2020-01-01T00:00:00Z' }, { when: 'yesterday' }, { day: '2019-12-31' }, { day: '2020-01-02' }],
  },
  {
    name: 'an unknown keyword is tolerated (strict: false)',
    schema: { type: 'string', 'x-unknown': true },
    inputs: ['a', 1],
  },
];

describe('the SDK validator shim, against the SDK\'s own _shims', () => {
  it('exports what the SDK\'s client and server shims export, with the same constants', () => {
    assert.deepEqual(names(ours), names(sdkClient));
    assert.deepEqual(names(oursServer), names(sdkServer));
    assert.equal(ours.CORS_IS_POSSIBLE, sdkClient.CORS_IS_POSSIBLE);
    assert.equal(oursServer.process, sdkServer.process);
    assert.equal(oursServer.DefaultJsonSchemaValidator, ours.DefaultJsonSchemaValidator);
  });

  for (const row of TABLE) {
    it(`gives the SDK's verdicts: ${row.name}`, () => {
      const sdk = new SDK().getValidator(row.schema);
      const host = new OURS().getValidator(row.schema);
      const verdicts = row.inputs.map((input) => {
        const a = sdk(input);
        const b = host(input);
        assert.equal(b.valid, a.valid, `${JSON.stringify(input)}: the SDK says ${a.valid ? 'valid' : `invalid (${a.errorMessage})`}`);
        assert.deepEqual(b.data, a.data);
        assert.equal(typeof b.errorMessage, typeof a.errorMessage);
        return a.valid;
      });
      // Each row has an input of each verdict, so a validator that says one thing always fails.
      assert.ok(verdicts.includes(true) && verdicts.includes(false), `the inputs of "${row.name}" should be both valid and invalid: ${verdicts}`);
    });
  }

  it('compiles a schema with a string $id once per validator: a second schema with that $id gets the first one', () => {
    for (const V of [SDK, OURS]) {
      const v = new V();
      assert.equal(v.getValidator({ $id: 'urn:contract:one', type: 'string' })('a').valid, true);
      assert.equal(v.getValidator({ $id: 'urn:contract:one', type: 'number' })('a').valid, true, V === SDK ? 'the SDK' : 'the shim');
      // A fresh validator has its own engines.
      assert.equal(new V().getValidator({ $id: 'urn:contract:one', type: 'number' })('a').valid, false);
    }
  });

  it('throws the same Error for a dialect it does not support', () => {
    const schema = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' };
    let sdkError: unknown;
    assert.throws(() => new SDK().getValidator(schema), (e: unknown) => ((sdkError = e), e instanceof Error));
    assert.throws(() => new OURS().getValidator(schema), (e: unknown) => e instanceof Error && e.message === (sdkError as Error).message);
  });

  it("uses a caller's engine for every schema, whatever its $schema", () => {
    const schema = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' };
    for (const V of [SDK, OURS]) {
      const v = new V(new Ajv({ strict: false, validateSchema: false }));
      const check = v.getValidator(schema);
      assert.equal(check('a').valid, true);
      assert.equal(check(1).valid, false);
    }
  });
});
