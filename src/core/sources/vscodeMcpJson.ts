import * as path from 'node:path';
import { describeValue } from '../settings/describeValue';
import { isPlainObject } from '../settings/isPlainObject';
import { ProblemSink, type FormatResult, type ImportContext, type ImportedInput, type ImportedServer } from './importedServer';
import type { JsoncDocument } from './jsoncDocument';
import { buildServerDefinition, type TranslateVariables } from './serverEntry';

/**
 * VS Code's `.vscode/mcp.json`: `{ "inputs": [...], "servers": { NAME: { type, command, args, env,
 * envFile, cwd | url, headers, dev } } }`. Mapped to `mcpHost.servers` entries:
 *
 * - `${workspaceFolder}` and `${env:NAME}` stay (MCP Host resolves them the same way when the server
 *   starts); `${userHome}`, `${workspaceFolderBasename}`, `${pathSeparator}` and `${/}` are substituted now.
 * - `${input:ID}` becomes `${secret:ID}`: asked for once (the input's description, password box or
 *   choices) and kept in the editor's secret storage, like VS Code keeps input values; the CLI reads
 *   `MCP_HOST_SECRET_<ID>`. An `inputs` entry of type `command` cannot be used.
 * - `envFile` is read when the server starts; `env` wins over it (as in VS Code).
 * - `dev` (watch and debug) is ignored with a warning; `sandbox`/`sandboxEnabled` are not supported
 *   and say so; `version` and `gallery` (gallery bookkeeping) are ignored.
 */
export function mapVscodeMcpJson(doc: JsoncDocument, source: string, ctx: ImportContext): FormatResult {
  const sink = new ProblemSink(doc);
  const root = doc.value;
  const servers: ImportedServer[] = [];
  if (!isPlainObject(root)) {
    sink.add('error', [], `expected an object with "servers", got ${describeValue(root)}; nothing is imported`);
    return { servers, inputs: [], problems: sink.problems };
  }
  for (const key of Object.keys(root)) {
    if (key !== 'servers' && key !== 'inputs') sink.add('warning', [key], 'unknown key (a VS Code mcp.json has "servers" and "inputs"); ignored');
  }
  const { inputs, commandInputs } = readInputs(root.inputs, source, sink);
  const declared = new Map(inputs.map((i) => [i.id, i]));
  const translate = vscodeVariables(ctx, declared, commandInputs);

  const entries = root.servers;
  if (entries === undefined) return { servers, inputs, problems: sink.problems };
  if (!isPlainObject(entries)) {
    sink.add('error', ['servers'], `expected an object of servers by name, got ${describeValue(entries)}; nothing is imported`);
    return { servers, inputs, problems: sink.problems };
  }
  const sandboxNote = 'sandboxing is not supported by MCP Host: this server would run without a sandbox';
  for (const [name, def] of Object.entries(entries)) {
    const definition = buildServerDefinition(name, def, ['servers', name], sink, {
      translate,
      lenientEnv: true,
      extraKeys: ['envFile'],
      defaultCwd: ctx.workspaceFolder ? '${workspaceFolder}' : undefined,
      ignoredKeys: {
        dev: 'development mode ("dev": watch and debug) is not supported by MCP Host and is ignored; the server runs normally',
        sandboxEnabled: sandboxNote,
        sandbox: sandboxNote,
        oauth: '"oauth" is not used by MCP Host and is ignored',
        version: null,
        gallery: null,
      },
    });
    if (definition) servers.push({ name, definition, source, location: doc.locate(['servers', name]) });
  }
  return { servers, inputs, problems: sink.problems };
}

function readInputs(value: unknown, source: string, sink: ProblemSink): { inputs: ImportedInput[]; commandInputs: Set<string> } {
  const inputs: ImportedInput[] = [];
  const commandInputs = new Set<string>();
  if (value === undefined) return { inputs, commandInputs };
  if (!Array.isArray(value)) {
    sink.add('error', ['inputs'], `expected an array of inputs, got ${describeValue(value)}; no input is declared`);
    return { inputs, commandInputs };
  }
  value.forEach((input, i) => {
    const at = ['inputs', i];
    if (!isPlainObject(input) || typeof input.id !== 'string' || input.id === '') {
      sink.add('error', at, 'expected an input with a non-empty "id"; ignored');
      return;
    }
    const id = input.id;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    if (input.type === 'command') {
      commandInputs.add(id);
      return;
    }
    if (input.type !== 'promptString' && input.type !== 'pickString') {
      sink.add('error', [...at, 'type'], `expected "promptString", "pickString" or "command", got ${describeValue(input.type)}; input "${id}" is ignored`);
      return;
    }
    const options =
      input.type === 'pickString' && Array.isArray(input.options)
        ? input.options.map((o) => (isPlainObject(o) ? text(o.value) : text(o))).filter((o): o is string => o !== undefined)
        : undefined;
    inputs.push({
      id,
      password: input.password === true,
      source,
      ...(text(input.description) !== undefined ? { description: text(input.description) } : {}),
      ...(text(input.default) !== undefined ? { default: text(input.default) } : {}),
      ...(options ? { options } : {}),
    });
  });
  return { inputs, commandInputs };
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** The variables of VS Code's configuration resolver that an MCP server definition can use here. */
export function vscodeVariables(ctx: ImportContext, inputs: ReadonlyMap<string, ImportedInput>, commandInputs: ReadonlySet<string>): TranslateVariables {
  return (value) => {
    let error: string | undefined;
    const out = value.replace(VARIABLE, (whole, body: string) => {
      const replaced = translateOne(body.trim(), whole, ctx, inputs, commandInputs);
      if (typeof replaced !== 'string') error ??= replaced.error;
      return typeof replaced === 'string' ? replaced : whole;
    });
    return error !== undefined ? { error } : { value: out };
  };
}

function translateOne(
  body: string,
  whole: string,
  ctx: ImportContext,
  inputs: ReadonlyMap<string, ImportedInput>,
  commandInputs: ReadonlySet<string>,
): string | { error: string } {
  switch (body) {
    case 'workspaceFolder':
      return '${workspaceFolder}';
    case 'workspaceFolderBasename':
      return ctx.workspaceFolder ? path.basename(ctx.workspaceFolder) : { error: `${whole} is used but no workspace folder is open` };
    case 'userHome':
      return ctx.homeDir;
    case 'pathSeparator':
    case '/':
      return path.sep;
  }
  const colon = body.indexOf(':');
  const kind = colon > 0 ? body.slice(0, colon) : '';
  const name = body.slice(colon + 1).trim();
  if (kind === 'env' && name) return `\${env:${name}}`;
  if (kind === 'input' && name) {
    if (commandInputs.has(name)) return { error: `input "${name}" runs a command, which MCP Host cannot do` };
    if (!inputs.has(name)) return { error: `${whole} names no input declared under "inputs"` };
    return `\${secret:${name}}`;
  }
  return {
    error: `variable ${whole} is not supported by MCP Host (supported: \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${pathSeparator}, \${env:NAME}, \${input:ID})`,
  };
}
