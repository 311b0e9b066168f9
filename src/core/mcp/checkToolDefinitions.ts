import type { Tool } from '@modelcontextprotocol/client';
import { ToolSchema } from '@modelcontextprotocol/core';
import { schemaProblem } from '../tools/jsonSchemaCompilers';
import { isPlainObject } from '../settings/isPlainObject';
import { inspectToolUi } from '../apps/toolUi';
import { headerAnnotations } from './headerAnnotations';

/** Something wrong with one tool a server lists: the tool is not loaded, or loaded without a part. */
export interface ToolDefinitionProblem {
  /** The tool's name as listed ("#3" for an entry without a usable name). */
  readonly tool: string;
  /** Readable, no validation dump: `its inputSchema has no "type": "object"`. */
  readonly message: string;
  /** true: the tool is loaded without the part `message` names. */
  readonly loaded: boolean;
}

/** Parts of a definition the tool can do without: a bad one is dropped, the tool kept. */
const OPTIONAL_PARTS = new Set(['description', 'title', 'annotations', 'icons', 'execution', '_meta']);

/**
 * Checks each tool of a `tools/list` page on its own (the SDK rejects the whole page for one bad
 * tool): a tool needs a name and an `inputSchema` (and, if given, an `outputSchema`) that is a
 * valid JSON Schema of `"type": "object"`; a malformed optional part (description, annotations…)
 * is dropped. Returns the usable tools and one problem per dropped tool or part.
 */
export function checkToolDefinitions(raw: readonly unknown[], offset = 0, o: CheckOptions = {}): { tools: Tool[]; problems: ToolDefinitionProblem[] } {
  const tools: Tool[] = [];
  const problems: ToolDefinitionProblem[] = [];
  raw.forEach((entry, i) => {
    const r = checkOne(entry, offset + i, o);
    if (r.tool) tools.push(r.tool);
    problems.push(...r.problems);
  });
  return { tools, problems };
}

export interface CheckOptions {
  /**
   * The connection mirrors arguments into HTTP headers (2026-07-28 over Streamable HTTP): a tool whose
   * `x-mcp-header` declarations break the spec's rules cannot be called correctly and is not loaded.
   */
  readonly headers?: boolean;
}

function checkOne(entry: unknown, index: number, o: CheckOptions): { tool?: Tool; problems: ToolDefinitionProblem[] } {
  if (!isPlainObject(entry)) return reject(`#${index + 1}`, `entry ${index + 1} of tools/list is not an object`);
  const name = entry.name;
  if (typeof name !== 'string' || name === '') {
    return reject(`#${index + 1}`, `entry ${index + 1} of tools/list has no name${typeof entry.description === 'string' ? ` (description: "${short(entry.description)}")` : ''}`);
  }
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    if (key === 'outputSchema' && entry.outputSchema === undefined) continue;
    const why = schemaShapeProblem(entry[key]);
    if (why) return reject(name, `tool "${name}" is not loaded: its ${key} ${why}`);
  }
  const headers = o.headers ? headerAnnotations(entry.inputSchema).problem : undefined;
  if (headers) return reject(name, `tool "${name}" is not loaded: its inputSchema's header annotation is invalid: ${headers}`);
  const problems: ToolDefinitionProblem[] = [];
  let candidate: Record<string, unknown> = entry;
  for (let attempt = 0; attempt < 2; attempt++) {
    const parsed = ToolSchema.safeParse(candidate);
    if (parsed.success) return withUi(parsed.data, problems);
    const parts = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')));
    const required = [...parts].filter((p) => !OPTIONAL_PARTS.has(p));
    if (required.length || attempt === 1) {
      const issue = parsed.error.issues.find((i) => required.includes(String(i.path[0] ?? ''))) ?? parsed.error.issues[0];
      return reject(name, `tool "${name}" is not loaded: ${issue.path.join('.') || 'the definition'}: ${issue.message}`);
    }
    candidate = { ...candidate };
    for (const p of parts) {
      delete candidate[p];
      problems.push({ tool: name, loaded: true, message: `tool "${name}" is loaded without its ${p}, which is malformed` });
    }
  }
  return reject(name, `tool "${name}" is not loaded`);
}

/** Why a value is not a usable tool schema (an object of type "object" that is a valid JSON Schema). */
function schemaShapeProblem(schema: unknown): string | undefined {
  if (!isPlainObject(schema)) return `is not an object (got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema})`;
  if (schema.type !== 'object') return `must have "type": "object" (got ${schema.type === undefined ? 'no "type"' : JSON.stringify(schema.type)})`;
  const invalid = schemaProblem(schema);
  return invalid ? `is not a valid JSON Schema: ${invalid}` : undefined;
}

/** MCP Apps: a tool whose `_meta.ui.visibility` is malformed is not loaded (whom it is for is unknown); other malformed parts are ignored. */
function withUi(tool: Tool, problems: ToolDefinitionProblem[]): { tool?: Tool; problems: ToolDefinitionProblem[] } {
  const ui = inspectToolUi(tool);
  if (ui.refused) return reject(tool.name, `tool "${tool.name}" is not loaded: ${ui.refused}`);
  for (const why of ui.problems) problems.push({ tool: tool.name, loaded: true, message: `tool "${tool.name}": ${why}` });
  return { tool, problems };
}

function reject(tool: string, message: string): { problems: ToolDefinitionProblem[] } {
  return { problems: [{ tool, message, loaded: false }] };
}

function short(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
