import { z } from 'zod';
import { OAuthSettingsSchema } from './oauthSettings';
import { DEFAULTS, type ProtocolSetting } from './hostSettings';
import { EXPECTED, nonEmptyString, positiveInt, stringList, stringMap } from './valueSchemas';

/** `mcpHost.servers` and one server definition (see settingsSchema.ts for how the meta is used). */

const PROTOCOL_SETTINGS: readonly [ProtocolSetting, ...ProtocolSetting[]] = ['auto', '2025-11-25', '2026-07-28'];

const serverCommon = {
  enabled: z
    .boolean({ error: EXPECTED.bool })
    .optional()
    .meta({ default: true, description: 'Set to false to keep this server configured but never start it.' }),
  timeoutMs: positiveInt.optional().meta({
    markdownDescription:
      "Per-call timeout for this server's tools in milliseconds; overrides `#mcpHost.timeoutMs#`. A timed-out call is cancelled (`notifications/cancelled`) and the model is told.",
  }),
  connectTimeoutMs: positiveInt.optional().meta({
    default: DEFAULTS.connectTimeoutMs,
    markdownDescription: 'How long starting this server (connect, `initialize`, `tools/list`) may take, in milliseconds.',
  }),
  maxMessageBytes: positiveInt.optional().meta({
    markdownDescription: 'Largest single message this server may send, in bytes; overrides `#mcpHost.maxMessageBytes#`.',
  }),
  resetTimeoutOnProgress: z
    .boolean({ error: EXPECTED.bool })
    .optional()
    .meta({
      default: DEFAULTS.resetTimeoutOnProgress,
      markdownDescription:
        "A progress notification from the server restarts the call's timeout, so a call that keeps reporting progress may run up to `maxTotalTimeoutMs`. For a tool run as a task, a change of the task's status counts as progress.",
    }),
  maxTotalTimeoutMs: positiveInt.optional().meta({
    default: DEFAULTS.maxTotalTimeoutMs,
    markdownDescription:
      'Longest a call of this server may run in milliseconds, however much progress it reports (with `resetTimeoutOnProgress`). Default: 10 minutes.',
  }),
  protocol: z
    .enum(PROTOCOL_SETTINGS, { error: 'expected "auto", "2025-11-25" or "2026-07-28"' })
    .optional()
    .meta({
      default: 'auto',
      enumDescriptions: [
        'Detect the era: a server that answers `server/discover` speaks 2026-07-28, any other the 2025-11-25 handshake (`initialize`). The verdict is remembered per server and checked again when it stops working.',
        'Only the 2025-11-25 handshake (`initialize`), as before 2026-07-28: no probe.',
        'Only 2026-07-28 (`server/discover`); a server that does not speak it fails to start with a clear error.',
      ],
      markdownDescription: 'Which MCP revision the host speaks to this server. `auto` works with servers of either era.',
    }),
  roots: z
    .union([z.literal(false), z.array(nonEmptyString, { error: EXPECTED.strings })], { error: 'expected false or an array of folders' })
    .optional()
    .meta({
      markdownDescription:
        'The folders this server gets as roots (`roots/list`), e.g. `["${workspaceFolder}/files"]`; a relative path is resolved against the workspace folder. `false`: the host declares no roots, so the server keeps to its own arguments. Unset: the workspace folders. Some servers (server-filesystem) replace the folders in their arguments with the roots.',
    }),
};

export const StdioServerSchema = z
  .strictObject(
    {
      type: z
        .enum(['stdio'], { error: 'expected "stdio"' })
        .optional()
        .meta({ description: 'A local process over stdio (the default when "command" is given).' }),
      command: nonEmptyString.meta({
        markdownDescription: 'The program to run, e.g. `node`, `npx` or `uvx`. Variables: `${workspaceFolder}`, `${env:NAME}`, `${secret:NAME}`.',
      }),
      args: stringList.optional().meta({ default: [], markdownDescription: 'Arguments of the command. Variables are substituted as in `command`.' }),
      env: stringMap.optional().meta({
        default: {},
        markdownDescription:
          'Extra environment variables for the process. Values may use `${env:NAME}` and `${secret:NAME}`; they are never shown in the UI or logs.',
      }),
      cwd: nonEmptyString.optional().meta({ markdownDescription: 'Working directory; a relative path is resolved against the workspace folder.' }),
      envFile: nonEmptyString.optional().meta({
        markdownDescription:
          'A file of `NAME=value` lines (dotenv) read right before the server starts; `env` wins over it. A relative path is resolved against the workspace folder; variables are substituted as in `command`.',
      }),
      ...serverCommon,
    },
    { error: EXPECTED.object },
  )
  .meta({
    title: 'Local server (stdio)',
    description: 'A local MCP server started as a child process, speaking MCP over stdin/stdout.',
  });

export const RemoteServerSchema = z
  .strictObject(
    {
      type: z.enum(['http', 'sse'], { error: 'expected "http" or "sse"' }).meta({
        enumDescriptions: [
          'Streamable HTTP; falls back to the older SSE transport when the endpoint answers with a 4xx.',
          'The older HTTP+SSE transport only.',
        ],
      }),
      // parseServers checks the URL itself (checkHttpUrl); the pattern is the editor's hint.
      url: nonEmptyString.meta({
        pattern: '^(https?://|.*\\$\\{)',
        patternErrorMessage: 'Expected an absolute http:// or https:// URL (variables like ${env:NAME} allowed).',
        markdownDescription: "The server's endpoint, e.g. `https://example.com/mcp`.",
      }),
      headers: stringMap.optional().meta({
        default: {},
        markdownDescription:
          'HTTP headers sent with every request, e.g. `{ "Authorization": "Bearer ${secret:github-token}" }`. Values may use `${env:NAME}` and `${secret:NAME}`.',
      }),
      // parseServers validates it with parseOAuthSettings (cross-field rules, secrets never echoed).
      oauth: OAuthSettingsSchema.optional(),
      ...serverCommon,
    },
    { error: EXPECTED.object },
  )
  .meta({
    title: 'Remote server (HTTP or SSE)',
    description: 'A remote MCP server reached over Streamable HTTP (falling back to SSE) or SSE only.',
  });

/**
 * `mcpHost.servers`. parseServers validates it entry by entry (one bad server never stops the
 * others) with the two schemas above; the name rules here are checked there too.
 */
export const ServersSchema = z
  .record(
    z.string().meta({ pattern: '^[^/]+$', patternErrorMessage: 'A server name must not contain "/".' }),
    z.xor([StdioServerSchema, RemoteServerSchema]).meta({
      defaultSnippets: [
        { label: 'Local server (stdio)', body: { command: '$1', args: [] } },
        { label: 'Remote server (HTTP)', body: { type: 'http', url: 'https://$1' } },
      ],
    }),
  )
  .meta({
    default: {},
    restricted: true,
    markdownDescription:
      'MCP servers by name. A local server: `{ "command": "node", "args": ["server.js"] }`; a remote one: `{ "type": "http", "url": "https://…/mcp" }`. Strings may use `${workspaceFolder}`, `${env:NAME}` and `${secret:NAME}` (set with **MCP Host: Set Secret…**). Names must not contain `/`. The order of the keys decides tool-name conflicts.',
  });
