import { z } from 'zod';
import { maxToolsSchema, maxToolTokensSchema, RulesSchema } from './rulesSchema';
import { resourcePatternList } from './resourcePatternSyntax';
import { EXPECTED, nonEmptyString, patternList } from './valueSchemas';

/** `mcpHost.roles` and one role definition (see settingsSchema.ts for how the meta is used). */

export const RoleSchema = z.strictObject(
  {
    description: z.string({ error: EXPECTED.string }).optional().meta({ description: 'Shown when choosing a role.' }),
    servers: z
      .array(nonEmptyString, { error: 'expected an array of server names' })
      .optional()
      .meta({
        uniqueItems: true,
        markdownDescription: 'Servers this role uses (keys of `#mcpHost.servers#`); only these are started. Omit for every enabled server.',
      }),
    tools: patternList.optional().meta({
      default: ['*/*'],
      markdownDescription: "Tools the model may see and call, as `server/tool` globs. Default: `[\"*/*\"]` (every tool of the role's servers).",
    }),
    exclude: patternList.optional().meta({ default: [], markdownDescription: 'Tools removed from `tools` (`server/tool` globs).' }),
    autoApprove: patternList.optional().meta({
      default: [],
      markdownDescription: 'Tools of this role that run without asking (`server/tool` globs), in addition to `#mcpHost.autoApprove#`.',
    }),
    confirm: patternList.optional().meta({
      default: [],
      markdownDescription: 'Tools of this role that always ask (`server/tool` globs); wins over every `autoApprove`.',
    }),
    rules: RulesSchema.optional().meta({
      markdownDescription: 'Argument rules of this role, applied after `#mcpHost.rules#` (same form: `tools`, `when`, `action`, `reason`).',
    }),
    maxTools: maxToolsSchema.optional(),
    maxToolTokens: maxToolTokensSchema.optional(),
    resources: resourcePatternList.optional().meta({
      default: [],
      markdownDescription:
        'Resources this role may list, read and attach to a chat request, as `server/uri` globs: the server part ends at the first `/`, the rest matches the URI, where `*` also matches `/` (e.g. `"docs/file:///guides/*"`, `"everything/*"`). Default: none.',
    }),
    prompts: patternList.optional().meta({
      default: [],
      markdownDescription: 'Prompts this role may list and use (`@mcp /prompt`), as `server/prompt` globs. Default: none.',
    }),
  },
  { error: EXPECTED.object },
);

export const RolesSchema = z
  .record(
    z.string(),
    RoleSchema.meta({
      defaultSnippets: [
        { label: 'New role', body: { description: '$1', servers: ['$2'], tools: ['${3:*/*}'], autoApprove: [] } },
      ],
    }),
  )
  .meta({
    default: {},
    restricted: true,
    markdownDescription:
      'Agent roles by name: which servers each starts and which tools its model sees and may call (`server/tool` globs). The model of a role never sees the other tools. Select one with `#mcpHost.activeRole#` or `@mcp /role`.',
  });
