import picomatch from 'picomatch';
import { z } from 'zod';
import { SERVER_REQUEST_DEFAULTS } from './serverRequestSettings';
import { EXPECTED } from './valueSchemas';

/** `mcpHost.elicitation` and `mcpHost.sampling` (see settingsSchema.ts for how the meta is used). */

const SERVER_GLOB_HELP = 'a server name or a glob over server names such as "*" or "orders-*"';

/** Undefined when `p` is a usable glob over server names, else why it is not. */
export function whyNotServerGlob(p: string): string | undefined {
  if (p.trim() === '') return 'it is empty';
  if (p.includes('/')) return 'server names have no "/" (this is not a "server/tool" pattern)';
  try {
    picomatch.makeRe(p, { strictBrackets: true });
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

export const ServerGlobSchema = z
  .string({ error: `expected ${SERVER_GLOB_HELP}` })
  .superRefine((p, ctx) => {
    const reason = whyNotServerGlob(p);
    if (reason) ctx.addIssue({ code: 'custom', message: `expected ${SERVER_GLOB_HELP}`, params: { reason } });
  })
  .meta({ pattern: '^[^/]+$', patternErrorMessage: 'A server name (a key of mcpHost.servers) or a glob such as "*" or "orders-*"; no "/".' });
const serverGlobList = z.array(ServerGlobSchema, { error: `expected an array of server names (${SERVER_GLOB_HELP})` }).meta({ uniqueItems: true });
const roleLists = z.record(z.string(), serverGlobList, { error: 'expected an object of server-name lists keyed by role name' });

export const ElicitationSchema = z
  .strictObject(
    {
      servers: serverGlobList.optional().meta({
        default: SERVER_REQUEST_DEFAULTS.elicitation.servers,
        markdownDescription:
          'Servers whose questions (`elicitation/create`) are shown to you; a question from any other server is declined without asking. Names or globs; `[]` turns elicitation off.',
      }),
      roles: roleLists.optional().meta({
        default: {},
        markdownDescription: 'Per role (a key of `#mcpHost.roles#`): the servers that may ask while that role is active, replacing `servers`.',
      }),
    },
    { error: EXPECTED.object },
  )
  .meta({
    default: { servers: ['*'] },
    restricted: true,
    markdownDescription:
      'Which servers may ask you for information (MCP elicitation: a form, or a URL to open). You always answer yourself: nothing is filled in for you, a URL opens only after you agree, and every question and answer is audited (secret-looking fields redacted).',
  });

export const SamplingSchema = z
  .strictObject(
    {
      servers: serverGlobList.optional().meta({
        default: SERVER_REQUEST_DEFAULTS.sampling.servers,
        markdownDescription:
          'Servers that may ask for a language-model completion (`sampling/createMessage`). Default `[]`: sampling is off and every request is refused. You approve each request and its answer.',
      }),
      roles: roleLists.optional().meta({
        default: {},
        markdownDescription: 'Per role (a key of `#mcpHost.roles#`): the servers that may sample while that role is active, replacing `servers`.',
      }),
      model: z
        .string({ error: EXPECTED.string })
        .optional()
        .meta({
          markdownDescription:
            'The model that answers sampling requests: a model id, family or `vendor/family` of `vscode.lm`. Empty: the model chosen in the Chat view (else the first available).',
        }),
    },
    { error: EXPECTED.object },
  )
  .meta({
    default: { servers: [] },
    restricted: true,
    markdownDescription:
      'Which servers may use your language model (MCP sampling). Off by default. Each request is shown (messages, system prompt, token limit) before it is sent, and the answer before it is returned; tool use inside sampling is not offered.',
  });
