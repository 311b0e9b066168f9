import type { Environment } from '@marcbachmann/cel-js';
import { loadCel } from './loadCel';

/** What a condition sees of one call. */
export interface RuleVariables {
  readonly args: Record<string, unknown>;
  readonly server: string;
  readonly tool: string;
  readonly role: string;
  readonly workspaceFolder: string;
}

export type CompiledCondition =
  | { readonly ok: true; readonly text: string; test(vars: RuleVariables): boolean }
  | { readonly ok: false; readonly text: string; readonly error: string };

/**
 * Parses and type-checks a rule's `when` once. The result must be a bool (or dyn, checked again
 * at run time). `test` throws on any run-time failure (a missing field, a wrong type, a path that
 * cannot be judged, a non-bool result): the caller turns that into `deny` for a deny rule and
 * `confirm` for the others, never into allow.
 */
export function compileCondition(text: string, env: Environment): CompiledCondition {
  let program: ReturnType<Environment['parse']>;
  try {
    program = env.parse(text);
    const checked = program.check();
    if (!checked.valid) return { ok: false, text, error: celErrorText(checked.error, text) };
    if (checked.type !== 'bool' && checked.type !== 'dyn') {
      return { ok: false, text, error: `a condition must be true or false, this one is of type ${checked.type}` };
    }
  } catch (e) {
    return { ok: false, text, error: celErrorText(e, text) };
  }
  return {
    ok: true,
    text,
    test(vars) {
      let value: unknown;
      try {
        value = program(vars as unknown as Record<string, unknown>);
      } catch (e) {
        throw new Error(celErrorText(e, text), { cause: e });
      }
      if (typeof value !== 'boolean') throw new Error(`the condition gave ${describe(value)}, not true or false`);
      return value;
    },
  };
}

let checker: Environment | undefined;

/** Settings validation: the CEL error of a condition, or undefined when it compiles. */
export function conditionError(text: string): string | undefined {
  const compiled = compileCondition(text, (checker ??= loadCel().ruleEnvironment()));
  return compiled.ok ? undefined : compiled.error;
}

/** One line: the library's summary and where in the condition it is. */
export function celErrorText(e: unknown, text: string): string {
  if (!(e instanceof Error)) return String(e);
  const { summary, range } = e as Error & { summary?: string; range?: { start: number; end: number } };
  const head = summary ?? e.message.split('\n')[0];
  if (!range) return head;
  const near = text.slice(range.start, Math.max(range.end, range.start + 1)).slice(0, 40);
  return `${head} (at column ${range.start + 1}${near.trim() ? `: ${JSON.stringify(near)}` : ''})`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `the int ${value}`;
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
