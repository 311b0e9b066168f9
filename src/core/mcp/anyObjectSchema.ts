import { z } from 'zod';

/**
 * Any JSON object: `tools/call` and `tools/list` results are read leniently and checked per part
 * by the host (the SDK's strict schemas reject a whole result for one unknown or malformed part).
 */
export const AnyObjectSchema = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
  message: 'expected a JSON object',
});
