import type { FormField, FormOption } from './elicitationForm';

export type ParsedInput = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * What a person typed for one field (a terminal line, an input box) as the value to send.
 * Empty input leaves the field out (`value: undefined`), so its default applies. Choices are
 * picked by value, label or number; several choices are separated by commas.
 */
export function parseFieldInput(field: FormField, text: string): ParsedInput {
  const t = field.kind === 'string' ? text : text.trim();
  if (t.trim() === '') return { ok: true, value: undefined };
  switch (field.kind) {
    case 'string':
      return { ok: true, value: t };
    case 'number':
    case 'integer': {
      const n = Number(t);
      if (!Number.isFinite(n)) return { ok: false, error: `${field.label}: expected a number, got "${t}"` };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: `${field.label}: expected a whole number, got "${t}"` };
      return { ok: true, value: n };
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(t)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(t)) return { ok: true, value: false };
      return { ok: false, error: `${field.label}: answer yes or no, got "${t}"` };
    case 'choice': {
      const option = pick(field.options ?? [], t);
      return option ? { ok: true, value: option.value } : { ok: false, error: `${field.label}: "${t}" is not one of ${optionList(field)}` };
    }
    case 'choices': {
      const values: string[] = [];
      for (const part of t.split(',').map((p) => p.trim()).filter(Boolean)) {
        const option = pick(field.options ?? [], part);
        if (!option) return { ok: false, error: `${field.label}: "${part}" is not one of ${optionList(field)}` };
        if (!values.includes(option.value)) values.push(option.value);
      }
      return { ok: true, value: values };
    }
  }
}

/** A value as a prompt shows it pre-filled (choices by label). */
export function fieldInputText(field: FormField, value: unknown): string {
  if (value === undefined || value === null) return '';
  const label = (v: unknown) => field.options?.find((o) => o.value === v)?.label ?? String(v);
  if (field.kind === 'boolean') return value ? 'yes' : 'no';
  if (field.kind === 'choice') return label(value);
  if (Array.isArray(value)) return value.map(label).join(', ');
  return String(value);
}

/** How a field's expected input is described: "yes/no", "a whole number from 1 to 100", the options. */
export function fieldInputHint(field: FormField): string {
  const range = (min?: number, max?: number) =>
    min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : '';
  switch (field.kind) {
    case 'boolean':
      return 'yes/no';
    case 'integer':
      return `a whole number${range(field.minimum, field.maximum)}`;
    case 'number':
      return `a number${range(field.minimum, field.maximum)}`;
    case 'choice':
      return `one of ${optionList(field)}`;
    case 'choices':
      return `${field.minItems ?? 0}${field.maxItems !== undefined ? `–${field.maxItems}` : ' or more'} of ${optionList(field)}, separated by commas`;
    case 'string':
      return field.format ? `text (${field.format})` : 'text';
  }
}

function pick(options: readonly FormOption[], t: string): FormOption | undefined {
  const lower = t.toLowerCase();
  const byValue = options.find((o) => o.value === t) ?? options.find((o) => o.label.toLowerCase() === lower || o.value.toLowerCase() === lower);
  if (byValue) return byValue;
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= options.length ? options[n - 1] : undefined;
}

function optionList(field: FormField): string {
  return (field.options ?? []).map((o, i) => `${i + 1}) ${o.label}`).join(', ');
}
