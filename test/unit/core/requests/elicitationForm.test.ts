import * as assert from 'node:assert/strict';
import { REDACTED } from '../../../../src/core/audit/redactArguments';
import { ElicitationForm, type RequestedSchema } from '../../../../src/core/requests/elicitationForm';
import { fieldInputHint, fieldInputText, parseFieldInput } from '../../../../src/core/requests/formFieldInput';

/** The form of the conformance scenario elicitation-sep1034-client-defaults, plus choices and secrets. */
const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30, minimum: 0 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
    pet: { type: 'string', title: 'Pet', enum: ['p1', 'p2'], enumNames: ['Cat', 'Dog'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Wonder Woman' }] },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] }, maxItems: 1 },
    apiKey: { type: 'string', title: 'API key' },
    email: { type: 'string', format: 'email' },
  },
  required: ['email'],
} as unknown as RequestedSchema;

describe('ElicitationForm', () => {
  const form = new ElicitationForm(SCHEMA);
  const field = (n: string) => form.fields.find((f) => f.name === n)!;

  it('turns the schema into fields: kinds, labels, options (enumNames, oneOf, anyOf), secrets', () => {
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.label, f.required, f.secret]),
      [
        ['name', 'string', 'name', false, false],
        ['age', 'integer', 'age', false, false],
        ['score', 'number', 'score', false, false],
        ['status', 'choice', 'status', false, false],
        ['verified', 'boolean', 'verified', false, false],
        ['pet', 'choice', 'Pet', false, false],
        ['hero', 'choice', 'hero', false, false],
        ['fish', 'choices', 'fish', false, false],
        ['apiKey', 'string', 'API key', false, true],
        ['email', 'string', 'email', true, false],
      ],
    );
    assert.deepEqual(field('pet').options, [{ value: 'p1', label: 'Cat' }, { value: 'p2', label: 'Dog' }]);
    assert.deepEqual(field('hero').options?.map((o) => o.label), ['Superman', 'Wonder Woman']);
    assert.deepEqual(field('fish').options?.map((o) => o.value), ['f1', 'f2']);
  });

  it('SEP-1034: defaults are offered, and fill what an answer leaves out', () => {
    assert.deepEqual(form.defaults(), { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true });
    assert.deepEqual(form.complete({ email: 'a@b.c', age: 41, unknown: 1 }), { name: 'John Doe', age: 41, score: 95.5, status: 'active', verified: true, email: 'a@b.c' });
  });

  it('validates a complete answer against the schema', () => {
    assert.deepEqual(form.validate(form.complete({ email: 'a@b.c' })), []);
    assert.deepEqual(form.validate(form.complete({})), ['email is required']);
    assert.deepEqual(form.validate(form.complete({ email: 'nope', age: -1, status: 'gone', fish: ['f1', 'f2'] })), [
      'age: must be >= 0',
      'status: must be one of "active", "inactive", "pending"',
      'fish: must NOT have more than 1 items',
      'email: must match format "email"',
    ]);
    assert.deepEqual(form.validate({ email: 'a@b.c', extra: 1 }), ['unknown field "extra"']);
  });

  it('checks one field at a time (for a prompt that validates as you type)', () => {
    assert.equal(form.fieldError('age', 3), undefined);
    assert.equal(form.fieldError('age', 2.5), 'age: must be integer');
    assert.equal(form.fieldError('email', undefined), 'email is required');
    assert.equal(form.fieldError('name', undefined), undefined);
  });

  it('redacts secret-looking fields for the audit', () => {
    assert.deepEqual(form.redact({ apiKey: 'sk-1', name: 'x', password: 'p' }), { apiKey: REDACTED, name: 'x', password: REDACTED });
  });
});

describe('parseFieldInput: what a person typed, as the value to send', () => {
  const form = new ElicitationForm(SCHEMA);
  const field = (n: string) => form.fields.find((f) => f.name === n)!;

  it('empty input leaves the field out (its default applies)', () => {
    assert.deepEqual(parseFieldInput(field('age'), '  '), { ok: true, value: undefined });
  });

  it('numbers, whole numbers, yes/no', () => {
    assert.deepEqual(parseFieldInput(field('age'), '42'), { ok: true, value: 42 });
    assert.deepEqual(parseFieldInput(field('age'), '4.2'), { ok: false, error: 'age: expected a whole number, got "4.2"' });
    assert.deepEqual(parseFieldInput(field('score'), 'x'), { ok: false, error: 'score: expected a number, got "x"' });
    assert.deepEqual(parseFieldInput(field('verified'), 'No'), { ok: true, value: false });
    assert.equal(parseFieldInput(field('verified'), 'maybe').ok, false);
  });

  it('choices by value, label or number; several separated by commas', () => {
    assert.deepEqual(parseFieldInput(field('pet'), 'dog'), { ok: true, value: 'p2' });
    assert.deepEqual(parseFieldInput(field('pet'), '1'), { ok: true, value: 'p1' });
    assert.deepEqual(parseFieldInput(field('hero'), 'h2'), { ok: true, value: 'h2' });
    assert.deepEqual(parseFieldInput(field('fish'), 'Tuna, 2'), { ok: true, value: ['f1', 'f2'] });
    assert.deepEqual(parseFieldInput(field('pet'), 'bird'), { ok: false, error: 'Pet: "bird" is not one of 1) Cat, 2) Dog' });
  });

  it('text keeps what was typed', () => {
    assert.deepEqual(parseFieldInput(field('name'), ' Ada '), { ok: true, value: ' Ada ' });
  });

  it('pre-fills and hints', () => {
    assert.equal(fieldInputText(field('pet'), 'p2'), 'Dog');
    assert.equal(fieldInputText(field('verified'), true), 'yes');
    assert.equal(fieldInputText(field('fish'), ['f1']), 'Tuna');
    assert.equal(fieldInputHint(field('age')), 'a whole number of at least 0');
    assert.equal(fieldInputHint(field('email')), 'text (email)');
  });
});
