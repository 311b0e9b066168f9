import type { z } from 'zod';
import { describeValue, isSensitivePath } from './describeValue';
import type { SettingsProblem } from './hostSettings';
import type { PathSegment } from './settingPath';
import { settingsProblem } from './settingsProblem';

/**
 * Turns zod issues into problems at exact setting paths. The schemas' error texts are the
 * "expected …" half of a message; "got …" is added here from the value (never echoing headers/env).
 */

export interface IssueContext {
  /** Path of `value` below `mcpHost`. */
  readonly base: readonly PathSegment[];
  readonly value: unknown;
  readonly allowedKeys?: readonly string[];
  readonly server?: string;
  /** Appended to every message, e.g. `server "orders" is not loaded`. */
  readonly consequence?: string;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) {
      return { found: false, value: undefined };
    }
    cur = (cur as Record<PropertyKey, unknown>)[seg as string];
  }
  return { found: true, value: cur };
}

export function issuesToProblems(error: z.ZodError, ctx: IssueContext): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const tail = ctx.consequence ? `; ${ctx.consequence}` : '';
  for (const issue of error.issues) {
    const segs = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const full = [...ctx.base, ...segs];
    if (issue.code === 'unrecognized_keys') {
      const allowed = ctx.allowedKeys?.length ? ` (allowed: ${ctx.allowedKeys.join(', ')})` : '';
      for (const key of issue.keys) {
        problems.push(settingsProblem('error', [...full, key], `unknown key "${key}"${allowed}${tail}`, ctx.server));
      }
      continue;
    }
    const { found, value } = valueAt(ctx.value, segs);
    const expected = issue.message;
    const reason = issue.code === 'custom' && typeof issue.params?.reason === 'string' ? ` (${issue.params.reason})` : '';
    const message = found
      ? `${expected}, got ${describeValue(value, isSensitivePath(full))}${reason}`
      : `missing: ${expected}`;
    problems.push(settingsProblem('error', full, message + tail, ctx.server));
  }
  return problems;
}
