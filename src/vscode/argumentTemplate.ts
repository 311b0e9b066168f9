/**
 * A starting value for the "Call Tool…" input box: a JSON object with one placeholder per property
 * of the input schema (its default, first example or enum value, else an empty value of its type).
 */
export function argumentTemplate(inputSchema: unknown): string {
  return JSON.stringify(placeholderFor(inputSchema, 0) ?? {});
}

const MAX_DEPTH = 3;

function placeholderFor(schema: unknown, depth: number): unknown {
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as Record<string, unknown>;
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length) return placeholderFor(union.find((u) => (u as { type?: unknown })?.type !== 'null') ?? union[0], depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object':
    case undefined: {
      const props = s.properties as Record<string, unknown> | undefined;
      if (!props || typeof props !== 'object') return type === 'object' ? {} : null;
      if (depth >= MAX_DEPTH) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = placeholderFor(v, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

/** `validateInput` for the arguments box: undefined when the text is a JSON object (or empty). */
export function validateArgumentsJson(text: string): string | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `Not valid JSON: ${(e as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The arguments must be a JSON object, like {"name": "value"}.';
  return undefined;
}
