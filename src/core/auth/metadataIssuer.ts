import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';

/**
 * The authorization server metadata names another issuer than the one its well-known URL was built
 * from (RFC 8414 §3.3): the metadata is not used, nothing is registered, authorized or sent.
 */
export class MetadataIssuerMismatchError extends Error {
  constructor(
    /** The issuer identifier the metadata was fetched for. */
    readonly expected: string,
    /** What the metadata claims (server-controlled: JSON-quoted in the message). */
    readonly received: string,
  ) {
    super(
      `the authorization server metadata fetched for ${expected} names the issuer ${JSON.stringify(received.slice(0, 200))} (RFC 8414 §3.3); ` +
        'it is not used and no sign-in happens with it',
    );
    this.name = 'MetadataIssuerMismatchError';
  }
}

/**
 * RFC 8414 §3.3: the `issuer` of authorization server metadata must be the issuer identifier the
 * metadata URL was built from, as a string, with the one tolerance SDK v2 also applies: the URL
 * discovery used may carry a trailing "/" the metadata's issuer does not (`new URL(...)` adds one).
 * That identifier exists only where protected-resource metadata named the authorization server. A
 * 2025-03-26 server has none: its metadata is looked up from the MCP server's origin, which is no
 * issuer identifier (the official suite's back-compat scenario serves `issuer: <origin>/oauth`
 * there), and without metadata (the default endpoints) there is nothing to check at all.
 *
 * SDK 1.x does not check this; SDK v2's discovery does (IssuerMismatchError), and then this check
 * agrees with it and never fires. Both providers run it in `saveDiscoveryState`, the one door
 * through which a discovery result reaches the host, before any registration or authorization.
 */
export function checkMetadataIssuer(state: Pick<OAuthDiscoveryState, 'authorizationServerUrl' | 'authorizationServerMetadata' | 'resourceMetadata'>): void {
  const received = state.authorizationServerMetadata?.issuer;
  if (received === undefined || !state.resourceMetadata?.authorization_servers?.length) return;
  const expected = state.authorizationServerUrl;
  if (received === expected || (expected.endsWith('/') && received === expected.slice(0, -1))) return;
  throw new MetadataIssuerMismatchError(expected, received);
}

/**
 * What the host passes to every SDK discovery, `auth()` and HTTP transport: the RFC 8414 §3.3
 * issuer check is the host's own (`checkMetadataIssuer`, run in the providers'
 * `saveDiscoveryState` before anything is registered, opened or sent). It applies where the
 * protected-resource metadata named the authorization server; a 2025-03-26 server (no resource
 * metadata) has no issuer identifier to compare with, and SDK v2's own check would refuse the
 * metadata such servers publish at their origin (conformance 0.1.16's back-compat scenario).
 */
export const HOST_ISSUER_CHECK = { skipIssuerMetadataValidation: true } as const;
