import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { looksSecret, REDACTED } from '../audit/redactArguments';

export type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
export type FormContent = Record<string, unknown>;

/** text, number, integer, yes/no, one of a list, several of a list. */
export type FormFieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';

export interface FormOption {
  readonly value: string;
  readonly label: string;
}

/** One field of an elicitation form, in the shape a prompt needs. */
export interface FormField {
  readonly name: string;
  /** The schema's `title`, else the property name. */
  readonly label: string;
  readonly description?: string;
  readonly kind: FormFieldKind;
  readonly required: boolean;
  /** string formats of the spec: email, uri, date, date-time. */
  readonly format?: string;
  readonly options?: readonly FormOption[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** The schema's default (SEP-1034): offered pre-filled, and used when the answer omits the field. */
  readonly default?: unknown;
  /** The name or title looks like a password, token or key: masked in prompts, redacted in the audit. */
  readonly secret: boolean;
}

type Loose = Record<string, unknown>;

/**
 * An elicitation form (`requestedSchema`: a flat object of primitive fields): its fields for a
 * prompt, the schema defaults (SEP-1034), and validation of an answer with ajv.
 */
export class ElicitationForm {
  readonly fields: readonly FormField[];
  private ajv?: Ajv;
  private readonly validators = new Map<string, ValidateFunction | Error>();

  constructor(readonly schema: RequestedSchema) {
    const required = new Set(schema.required ?? []);
    this.fields = Object.entries(schema.properties).map(([name, def]) => toField(name, def as Loose, required.has(name)));
  }

  /** Every field's default, for a form shown pre-filled. */
  defaults(): FormContent {
    const out: FormContent = {};
    for (const f of this.fields) if (f.default !== undefined) out[f.name] = structuredClone(f.default);
    return out;
  }

  /** The answer with defaults for the fields it leaves out (SEP-1034); fields the schema does not know are dropped. */
  complete(content: FormContent | undefined): FormContent {
    const out: FormContent = {};
    for (const f of this.fields) {
      const v = content?.[f.name];
      if (v !== undefined && v !== null) out[f.name] = v;
      else if (f.default !== undefined) out[f.name] = structuredClone(f.default);
    }
    return out;
  }

  /** Problems of a complete answer, one line each; empty when it matches the schema. */
  validate(content: FormContent): string[] {
    const fn = this.compiled('', { ...this.schema, additionalProperties: false });
    if (fn instanceof Error) return [`the requested schema cannot be checked: ${fn.message}`];
    if (fn(content)) return [];
    return (fn.errors ?? []).map((e) => this.describe(e));
  }

  /** The problem with one field's value, if any (undefined: fine). */
  fieldError(name: string, value: unknown): string | undefined {
    const field = this.fields.find((f) => f.name === name);
    if (!field) return `unknown field "${name}"`;
    if (value === undefined) return field.required ? `${field.label} is required` : undefined;
    const fn = this.compiled(name, { type: 'object', properties: { [name]: this.schema.properties[name] } });
    if (fn instanceof Error) return undefined;
    return fn({ [name]: value }) ? undefined : this.describe((fn.errors ?? [])[0]);
  }

  /** The content as the audit may keep it: values of secret-looking fields replaced. */
  redact(content: FormContent): FormContent {
    const out: FormContent = {};
    for (const [k, v] of Object.entries(content)) {
      const f = this.fields.find((x) => x.name === k);
      out[k] = f?.secret || looksSecret(k) ? REDACTED : v;
    }
    return out;
  }

  /** The fields as the audit shows the request (no values). */
  summary(): { name: string; type: FormFieldKind; required: boolean }[] {
    return this.fields.map((f) => ({ name: f.name, type: f.kind, required: f.required }));
  }

  /** The validator of the whole form (key '') or of one field, compiled once. */
  private compiled(key: string, schema: object): ValidateFunction | Error {
    let fn = this.validators.get(key);
    if (!fn) {
      try {
        if (!this.ajv) {
          this.ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
          (addFormats as unknown as (a: Ajv) => void)(this.ajv);
        }
        fn = this.ajv.compile(schema);
      } catch (e) {
        fn = e instanceof Error ? e : new Error(String(e));
      }
      this.validators.set(key, fn);
    }
    return fn;
  }

  private describe(e: ErrorObject | undefined): string {
    if (!e) return 'the answer is invalid';
    const key = e.instancePath.split('/')[1];
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return `${this.labelOf(missing)} is required`;
    }
    if (e.keyword === 'additionalProperties') return `unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    const what = key !== undefined ? this.labelOf(key) : 'the answer';
    if (e.keyword === 'enum') return `${what}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    return `${what}: ${e.message ?? 'is invalid'}`;
  }

  private labelOf(name: string): string {
    return this.fields.find((f) => f.name === name)?.label ?? name;
  }
}

function toField(name: string, def: Loose, required: boolean): FormField {
  const label = typeof def.title === 'string' && def.title ? def.title : name;
  const common = {
    name,
    label,
    required,
    ...(typeof def.description === 'string' ? { description: def.description } : {}),
    ...(def.default !== undefined ? { default: def.default } : {}),
    secret: looksSecret(name) || looksSecret(label),
  };
  const num = (k: string) => (typeof def[k] === 'number' ? { [k]: def[k] as number } : {});
  if (def.type === 'array') {
    const items = (def.items ?? {}) as Loose;
    return { ...common, kind: 'choices', options: optionsOf(items.enum, undefined, items.anyOf ?? items.oneOf), ...num('minItems'), ...num('maxItems') };
  }
  if (def.type === 'string' && (Array.isArray(def.enum) || Array.isArray(def.oneOf))) {
    return { ...common, kind: 'choice', options: optionsOf(def.enum, def.enumNames, def.oneOf) };
  }
  if (def.type === 'boolean') return { ...common, kind: 'boolean' };
  if (def.type === 'number' || def.type === 'integer') return { ...common, kind: def.type, ...num('minimum'), ...num('maximum') };
  return { ...common, kind: 'string', ...(typeof def.format === 'string' ? { format: def.format } : {}), ...num('minLength'), ...num('maxLength') };
}

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{ const, title }`. */
function optionsOf(values: unknown, names: unknown, titled: unknown): FormOption[] {
  if (Array.isArray(titled)) {
    return titled
      .filter((o): o is Loose => !!o && typeof o === 'object' && typeof (o as Loose).const === 'string')
      .map((o) => ({ value: o.const as string, label: typeof o.title === 'string' ? o.title : (o.const as string) }));
  }
  if (!Array.isArray(values)) return [];
  const labels = Array.isArray(names) ? names : [];
  return values.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: typeof labels[i] === 'string' ? labels[i] : v }));
}
