import { z } from 'zod';

/**
 * The `"oauth"` object of a remote server (all optional; without it a server that asks for a
 * sign-in still gets one, with dynamic registration or a client metadata document):
 * `{ clientId, clientSecret, clientMetadataUrl, scopes, grant, privateKey, signingAlgorithm }`.
 * String values may hold `${env:NAME}` / `${secret:NAME}`; they are substituted later, so URL
 * checks are skipped for values that contain a variable. `clientSecret` and `privateKey` are
 * credentials: no message ever shows them.
 */

export const JWT_SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;
export type JwtSigningAlgorithm = (typeof JWT_SIGNING_ALGORITHMS)[number];

export type OAuthGrant = 'authorization_code' | 'client_credentials';

export interface OAuthSettings {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly clientMetadataUrl?: string;
  readonly scopes?: readonly string[];
  readonly grant: OAuthGrant;
  readonly privateKey?: string;
  readonly signingAlgorithm?: JwtSigningAlgorithm;
}

/** A problem at a path below the `oauth` object, e.g. `['scopes', 1]`; messages read like src/core/settings'. */
export interface OAuthSettingsProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const SECRET_KEYS = new Set(['clientSecret', 'privateKey']);
const nonEmpty = 'expected a non-empty string';
const hasVariable = (s: string) => s.includes('${');

const nonEmptyString = z.string({ error: nonEmpty }).min(1, { error: nonEmpty });
const scopeToken = z
  .string({ error: 'expected a scope (a string without spaces)' })
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { error: 'expected a scope (a string without spaces or quotes)' });

export const OAuthSettingsSchema = z
  .strictObject(
    {
      clientId: nonEmptyString.optional().meta({
        markdownDescription:
          'A client registered in advance with the authorization server. Without it the host uses `clientMetadataUrl`, else registers itself (dynamic client registration).',
      }),
      clientSecret: nonEmptyString.optional().meta({
        markdownDescription: "The pre-registered client's secret, e.g. `${secret:TRACKER_CLIENT_SECRET}`. Never shown in logs, errors or the audit.",
      }),
      clientMetadataUrl: nonEmptyString
        .refine((s) => hasVariable(s) || isHttpsUrlWithPath(s), {
          error: 'expected an https:// URL with a path (the client ID metadata document), e.g. "https://example.com/mcp-host-client.json"',
        })
        .optional()
        .meta({ markdownDescription: 'An https:// URL of a client ID metadata document to use as the client ID, where the authorization server supports them.' }),
      scopes: z
        .array(scopeToken, { error: 'expected an array of scopes, e.g. ["issues:read"]' })
        .optional()
        .meta({ markdownDescription: "Scopes to ask for. Default: the scope of the server's `WWW-Authenticate` challenge, else its `scopes_supported`." }),
      grant: z
        .enum(['authorization_code', 'client_credentials'], { error: 'expected "authorization_code" or "client_credentials"' })
        .optional()
        .meta({
          default: 'authorization_code',
          enumDescriptions: [
            'A person signs in in the browser (PKCE, loopback redirect).',
            'Machine use (CI): the client authenticates with `clientSecret` or `privateKey`; never a browser.',
          ],
        }),
      privateKey: nonEmptyString.optional().meta({
        markdownDescription: 'For `client_credentials` with `private_key_jwt`: a PKCS#8 PEM private key, e.g. `${secret:TRACKER_KEY_PEM}`.',
      }),
      signingAlgorithm: z
        .enum(JWT_SIGNING_ALGORITHMS, { error: `expected one of ${JWT_SIGNING_ALGORITHMS.join(', ')}` })
        .optional()
        .meta({ markdownDescription: "The JWS algorithm for `privateKey` (default: from the key's type)." }),
    },
    { error: 'expected an object' },
  )
  .meta({
    markdownDescription:
      'Sign-in with OAuth 2.1 as the MCP authorization specification describes. All optional: without it a server that answers 401 still gets a **Sign In** (dynamic registration). Tokens are kept in the editor\'s secret storage (the CLI: a 0600 file).',
  });

function isHttpsUrlWithPath(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.pathname !== '/';
  } catch {
    return false;
  }
}

function describe(value: unknown, secret: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return secret ? 'a string' : `string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return { found: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return { found: true, value: cur };
}

/**
 * Validate a server's `oauth` value. Undefined `settings` means it is unusable (the server should
 * not load, as with any other invalid server setting); the problems say why, each at its path.
 */
export function parseOAuthSettings(value: unknown): { settings?: OAuthSettings; problems: OAuthSettingsProblem[] } {
  const parsed = OAuthSettingsSchema.safeParse(value);
  if (!parsed.success) {
    const problems: OAuthSettingsProblem[] = [];
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
      if (issue.code === 'unrecognized_keys') {
        const allowed = Object.keys(OAuthSettingsSchema.shape).join(', ');
        for (const key of issue.keys) problems.push({ path: [...path, key], message: `unknown key "${key}" (allowed: ${allowed})` });
        continue;
      }
      const { found, value: v } = valueAt(value, path);
      const secret = path.some((s) => typeof s === 'string' && SECRET_KEYS.has(s));
      problems.push({ path, message: found ? `${issue.message}, got ${describe(v, secret)}` : `missing: ${issue.message}` });
    }
    return { problems };
  }
  const d = parsed.data;
  const grant = d.grant ?? 'authorization_code';
  const problems: OAuthSettingsProblem[] = [];
  if (grant === 'client_credentials') {
    if (d.clientId === undefined) problems.push({ path: ['clientId'], message: 'missing: "grant": "client_credentials" needs a clientId' });
    if (d.clientSecret === undefined && d.privateKey === undefined) {
      problems.push({ path: ['clientSecret'], message: 'missing: "grant": "client_credentials" needs a clientSecret or a privateKey' });
    }
    if (d.clientMetadataUrl !== undefined) {
      problems.push({ path: ['clientMetadataUrl'], message: 'is used only by "grant": "authorization_code"; remove it or change the grant' });
    }
  } else {
    if (d.clientSecret !== undefined && d.clientId === undefined) {
      problems.push({ path: ['clientId'], message: 'missing: a clientSecret needs the clientId it belongs to' });
    }
    if (d.privateKey !== undefined) {
      problems.push({ path: ['privateKey'], message: 'is used only by "grant": "client_credentials" (private_key_jwt)' });
    }
  }
  if (d.clientSecret !== undefined && d.privateKey !== undefined) {
    problems.push({ path: ['privateKey'], message: 'give either a clientSecret or a privateKey, not both' });
  }
  if (d.signingAlgorithm !== undefined && d.privateKey === undefined) {
    problems.push({ path: ['signingAlgorithm'], message: 'is used only with a privateKey' });
  }
  if (problems.length) return { problems };
  return {
    settings: {
      grant,
      ...(d.clientId !== undefined ? { clientId: d.clientId } : {}),
      ...(d.clientSecret !== undefined ? { clientSecret: d.clientSecret } : {}),
      ...(d.clientMetadataUrl !== undefined ? { clientMetadataUrl: d.clientMetadataUrl } : {}),
      ...(d.scopes !== undefined ? { scopes: [...d.scopes] } : {}),
      ...(d.privateKey !== undefined ? { privateKey: d.privateKey } : {}),
      ...(d.signingAlgorithm !== undefined ? { signingAlgorithm: d.signingAlgorithm } : {}),
    },
    problems,
  };
}
