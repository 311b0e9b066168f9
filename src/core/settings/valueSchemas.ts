import { z } from 'zod';
import { GLOB_HELP, isValidGlob } from './globSyntax';

/** The zod building blocks of the settings schemas, with their "expected …" error texts. */

export const EXPECTED = {
  string: 'expected a string',
  nonEmpty: 'expected a non-empty string',
  posInt: 'expected a positive integer',
  bool: 'expected true or false',
  strings: 'expected an array of strings',
  patterns: `expected an array of patterns (${GLOB_HELP})`,
  stringMap: 'expected an object of string values',
  object: 'expected an object',
} as const;

export const nonEmptyString = z.string({ error: EXPECTED.nonEmpty }).min(1, { error: EXPECTED.nonEmpty });
export const positiveInt = z.number({ error: EXPECTED.posInt }).int({ error: EXPECTED.posInt }).min(1, { error: EXPECTED.posInt });
export const stringList = z.array(z.string({ error: EXPECTED.string }), { error: EXPECTED.strings });
export const stringMap = z.record(z.string(), z.string({ error: EXPECTED.string }), { error: EXPECTED.stringMap });

/** One `server/tool` glob. The JSON Schema pattern is a coarse editor hint; isValidGlob decides. */
export const PatternSchema = z
  .string({ error: `expected ${GLOB_HELP}` })
  .superRefine((p, ctx) => {
    const reason = isValidGlob(p);
    if (reason) ctx.addIssue({ code: 'custom', message: `expected ${GLOB_HELP}`, params: { reason } });
  })
  .meta({
    pattern: '^[^/]+/[^/]+$',
    patternErrorMessage: 'Expected "server/tool", with globs allowed on either side, e.g. "orders/get_*" or "*/search".',
  });
export const patternList = z.array(PatternSchema, { error: EXPECTED.patterns }).meta({ uniqueItems: true });
