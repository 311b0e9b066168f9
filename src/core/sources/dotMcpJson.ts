import { describeValue } from '../settings/describeValue';
import { isPlainObject } from '../settings/isPlainObject';
import { ProblemSink, type FormatResult, type ImportContext, type ImportedServer } from './importedServer';
import type { JsoncDocument } from './jsoncDocument';
import { buildServerDefinition, type TranslateVariables } from './serverEntry';

/**
 * The `mcpServers` format of a project's `.mcp.json` (Claude Code; also Cursor's `.cursor/mcp.json`
 * and others): `{ "mcpServers": { NAME: { type?, command, args, env | type: "http" | "sse", url, headers } } }`.
 *
 * As in Claude Code, `${VAR}` and `${VAR:-default}` are expanded in `command`, `args`, `env` values,
 * `url` and `headers` values (never in names); a bare `$VAR` stays literal. `${VAR}` becomes
 * `${env:VAR}` (resolved when the server starts, and copied as such into settings);
 * `${VAR:-default}` becomes `${env:VAR}` when VAR is set and not empty, else the default. A `${VAR}`
 * that is not set and has no default makes Claude Code reject the configuration: here that server
 * is not imported, with the reason. A type-less entry with `url` is `http`; `disabled: true` keeps
 * it configured but not started. Claude-only keys (`headersHelper`, `oauth`, `timeout`, …) are
 * ignored with a warning.
 */
export function mapDotMcpJson(doc: JsoncDocument, source: string, ctx: ImportContext): FormatResult {
  const sink = new ProblemSink(doc);
  const root = doc.value;
  const servers: ImportedServer[] = [];
  if (!isPlainObject(root)) {
    sink.add('error', [], `expected an object with "mcpServers", got ${describeValue(root)}; nothing is imported`);
    return { servers, inputs: [], problems: sink.problems };
  }
  for (const key of Object.keys(root)) {
    if (key !== 'mcpServers') sink.add('warning', [key], 'unknown key (this format has "mcpServers"); ignored');
  }
  const entries = root.mcpServers;
  if (entries === undefined) return { servers, inputs: [], problems: sink.problems };
  if (!isPlainObject(entries)) {
    sink.add('error', ['mcpServers'], `expected an object of servers by name, got ${describeValue(entries)}; nothing is imported`);
    return { servers, inputs: [], problems: sink.problems };
  }
  const translate = dotMcpVariables(ctx.env);
  for (const [name, def] of Object.entries(entries)) {
    const definition = buildServerDefinition(name, def, ['mcpServers', name], sink, {
      translate,
      lenientEnv: false,
      extraKeys: ['disabled'],
      defaultCwd: ctx.workspaceFolder ? '${workspaceFolder}' : undefined,
      ignoredKeys: {},
    });
    if (definition) servers.push({ name, definition, source, location: doc.locate(['mcpServers', name]) });
  }
  return { servers, inputs: [], problems: sink.problems };
}

const VARIABLE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `${VAR}` / `${VAR:-default}` as Claude Code expands them, in MCP Host's variable syntax. */
export function dotMcpVariables(env: Readonly<Record<string, string | undefined>>): TranslateVariables {
  return (value) => {
    let error: string | undefined;
    const out = value.replace(VARIABLE, (whole, body: string) => {
      const sep = body.indexOf(':-');
      const name = sep >= 0 ? body.slice(0, sep) : body;
      if (!NAME.test(name)) {
        error ??= `${whole} is not a variable MCP Host can expand or pass on literally (use \${NAME} or \${NAME:-default})`;
        return whole;
      }
      const set = env[name] !== undefined && env[name] !== '';
      if (sep < 0) {
        if (env[name] === undefined) error ??= `environment variable "${name}" is not set and ${whole} has no default (\${${name}:-default})`;
        return `\${env:${name}}`;
      }
      const fallback = body.slice(sep + 2);
      if (!set && fallback.includes('${')) error ??= `the default of ${whole} uses a variable, which is not supported`;
      return set ? `\${env:${name}}` : fallback;
    });
    return error !== undefined ? { error } : { value: out };
  };
}
