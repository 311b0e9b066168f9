import type { AuthEventListener } from './authEvents';
import type { CredentialStore } from './credentialStore';

/**
 * Forget everything stored for a server URL: tokens, registered clients, the binding of a configured
 * client, discovery. Configured secrets stay where they are (settings / secret storage).
 * Returns whether any credentials were stored (tokens, a client, a sign-in under way); a discovery
 * state alone, which every connection attempt keeps, does not count.
 */
export async function signOut(serverUrl: string, store: CredentialStore, onEvent?: AuthEventListener): Promise<boolean> {
  const hadCredentials = (await store.issuers(serverUrl)).length > 0;
  await store.forget(serverUrl);
  onEvent?.({ type: 'signedOut', serverUrl, hadCredentials });
  return hadCredentials;
}
