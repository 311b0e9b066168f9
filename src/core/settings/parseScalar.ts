import type { z } from 'zod';
import type { SettingsProblem } from './hostSettings';
import { issuesToProblems } from './issuesToProblems';
import type { PathSegment } from './settingPath';

/** One value of `raw[key]`; a bad value is reported and `fallback` is used instead. */
export function parseScalar<T>(
  raw: Record<string, unknown>,
  key: string,
  schema: z.ZodType<T>,
  fallback: T,
  problems: SettingsProblem[],
  describeFallback = JSON.stringify(fallback),
  base: readonly PathSegment[] = key.split('.'),
): T {
  const value = raw[key];
  if (value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  problems.push(
    ...issuesToProblems(parsed.error, {
      base,
      value,
      consequence: `using the default ${describeFallback}`,
    }),
  );
  return fallback;
}
