import Ajv2019 from 'ajv/dist/2019';
import type Ajv from 'ajv';
import { newSchemaEngine } from './jsonSchemaCompilers';

/**
 * A JSON Schema 2019-09 engine of the host's kind. Only a schema that declares 2019-09 needs one,
 * so it is bundled apart as dist/ajv2019.js (with its own ajv and formats: an engine and its
 * formats must come from one copy of ajv) and loaded by loadAjv2019.ts.
 */
export function newAjv2019Engine(): Ajv {
  return newSchemaEngine(Ajv2019);
}
