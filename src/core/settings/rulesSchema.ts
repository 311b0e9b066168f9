import { z } from 'zod';
import { EXPECTED, nonEmptyString, patternList, positiveInt } from './valueSchemas';

/** `mcpHost.rules` / a role's `rules`, and the tool budget (`maxTools`, `maxToolTokens`). */

/** Longest condition accepted: a rule is a short test, not a program. */
export const MAX_CONDITION_CHARS = 2000;

export const RuleSchema = z.strictObject(
  {
    tools: patternList.min(1, { error: 'expected at least one `server/tool` glob' }).meta({
      markdownDescription: 'Tools this rule applies to (`server/tool` globs).',
    }),
    when: z
      .string({ error: 'expected a CEL condition (a string)' })
      .min(1, { error: 'expected a CEL condition (a non-empty string)' })
      .max(MAX_CONDITION_CHARS, { error: `expected a CEL condition of at most ${MAX_CONDITION_CHARS} characters` })
      .optional()
      .meta({
        markdownDescription:
          'CEL condition over the call: `args` (the arguments), `server`, `tool`, `role`, `workspaceFolder`; functions `isWithin(path, dir)`, `canonicalPath(path)`, `urlHost(url)`. E.g. `!isWithin(args.path, workspaceFolder)`. Omit to match every call of `tools`.',
      }),
    action: z.enum(['allow', 'confirm', 'deny'], { error: 'expected "allow", "confirm" or "deny"' }).meta({
      enumDescriptions: [
        "Runs without asking (only tools the role's globs show it).",
        'Asks before running, every time (even when autoApprove matches).',
        'Refused; the model is told the reason.',
      ],
      markdownDescription: 'What happens to a matching call: `deny` beats `confirm` beats `allow` beats `autoApprove`/`confirm`.',
    }),
    reason: nonEmptyString.meta({ markdownDescription: 'Shown in the confirmation, told to the model on a denial, written to the audit log.' }),
  },
  { error: EXPECTED.object },
);

export const RulesSchema = z.array(RuleSchema, { error: 'expected an array of rules' }).meta({
  defaultSnippets: [
    {
      label: 'New rule',
      body: [{ tools: ['${1:server/tool}'], when: '${2:!isWithin(args.path, workspaceFolder)}', action: '${3|confirm,deny,allow|}', reason: '$4' }],
    },
  ],
});

export const maxToolsSchema = positiveInt.meta({
  markdownDescription:
    'Most tool definitions sent with one model request (VS Code refuses more than 128). When the role has more, each request gets the most relevant ones for the prompt plus `search_tools`, through which the model can reach every other tool of the role.',
});

/** 0 = no limit (a role's 0 lifts a global limit). */
export const maxToolTokensSchema = z
  .number({ error: 'expected a whole number of tokens (0 for no limit)' })
  .int({ error: 'expected a whole number of tokens (0 for no limit)' })
  .min(0, { error: 'expected a whole number of tokens (0 for no limit)' })
  .meta({
    markdownDescription:
      "Most tokens of tool definitions sent with one model request (counted with the chat model's tokenizer; in the CLI with `o200k_base`). `0`: no limit. Over it, requests get the most relevant tools plus `search_tools`.",
  });
