import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { issueText } from '../../apps/uiMeta';

/** At most this many URL elicitations are taken from one -32042: each is a question to the person. */
const MAX_ELICITATIONS = 5;

/**
 * One URL elicitation a -32042 names (2025-11-25 `URLElicitationRequiredError`: `data.elicitations`
 * is a list of `ElicitRequestURLParams`, each with `mode: "url"`, `message`, `url` and
 * `elicitationId`), checked: an absolute http(s) URL. Whether it may be opened at all (https, or http
 * to this machine; no user info) is the elicitation path's own check, as for `elicitation/create`.
 */
const RequiredUrlElicitationSchema = z.object({
  mode: z.literal('url', 'expected "url"'),
  message: z.string('expected a string'),
  elicitationId: z.string('expected a string').min(1, 'expected a non-empty string'),
  url: z
    .string('expected a string')
    .refine((u) => URL.canParse(u), 'expected an absolute URL')
    .refine((u) => !URL.canParse(u) || ['http:', 'https:'].includes(new URL(u).protocol), 'expected an http(s) URL'),
});

const UrlElicitationRequiredDataSchema = z.object(
  {
    elicitations: z
      .array(RequiredUrlElicitationSchema, 'expected a list of URL elicitations')
      .min(1, 'expected at least one URL elicitation')
      .max(MAX_ELICITATIONS, `expected at most ${MAX_ELICITATIONS} URL elicitations`),
  },
  'expected an object with "elicitations"',
);

export type RequiredUrlElicitation = z.infer<typeof RequiredUrlElicitationSchema>;

/**
 * The host's side of a -32042 for one client (installed by the elicitation feature): each URL
 * elicitation goes through the same path as a server's `elicitation/create` in URL mode (trust,
 * role, `mcpHost.elicitation`, the person, one audit record each). Resolves once the person has
 * opened every URL and the wait for the server's `notifications/elicitation/complete` is over (it
 * came, or `waitMs` passed, with the calls' clocks stopped); rejects with a text saying which step
 * was not done and why. `signal` is the call's: a Stop or timeout ends the question and the wait.
 */
export interface UrlElicitationStep {
  complete(elicitations: readonly RequiredUrlElicitation[], signal: AbortSignal, waitMs: number): Promise<void>;
}

/** Per client, so the call path finds the step without a port of its own through every connection layer. */
const steps = new WeakMap<Client, UrlElicitationStep>();

export function setUrlElicitationStep(client: Client, step: UrlElicitationStep): void {
  steps.set(client, step);
}

export function isUrlElicitationRequired(e: unknown): e is ProtocolError {
  return e instanceof ProtocolError && e.code === ProtocolErrorCode.UrlElicitationRequired;
}

/** The elicitations of a -32042's data, or the reason they cannot be used (naming the field). */
export function readUrlElicitations(data: unknown): { readonly ok: true; readonly elicitations: RequiredUrlElicitation[] } | { readonly ok: false; readonly error: string } {
  const parsed = UrlElicitationRequiredDataSchema.safeParse(data);
  return parsed.success ? { ok: true, elicitations: parsed.data.elicitations } : { ok: false, error: issueText(parsed.error, 'data') };
}

/**
 * A server answered a request with -32042 (URL elicitation required): the host runs the step it
 * asks for (the client's UrlElicitationStep) and then sends the request again, once. Without a step
 * (a host that cannot ask anybody) the error stands as the server's words. Malformed data opens
 * nothing; a step not done, or the same error again after it, fails with a text for the model and
 * the person; it never loops.
 */
export async function afterUrlElicitation<T>(client: Client, error: ProtocolError, o: { readonly signal: AbortSignal; readonly waitMs: number; readonly server?: string }, retry: () => Promise<T>): Promise<T> {
  const step = steps.get(client);
  if (!step) throw error;
  const who = o.server ? `server "${o.server}"` : 'the server';
  const read = readUrlElicitations(error.data);
  if (!read.ok) {
    throw new Error(`${who} asked for a step in the browser (error -32042, URL elicitation required) but its request is not usable (${read.error}); nothing was opened and the tool did not run`, { cause: error });
  }
  await step.complete(read.elicitations, o.signal, o.waitMs);
  if (o.signal.aborted) throw o.signal.reason;
  try {
    return await retry();
  } catch (again) {
    if (!isUrlElicitationRequired(again)) throw again;
    throw new Error(`${who} still asks for the step in the browser after it was opened and the request sent again (error -32042); the tool did not run. Finish the step in the browser, then call the tool again`, { cause: again });
  }
}
