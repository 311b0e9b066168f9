import type { AuthEventListener } from './authEvents';
import type { CredentialStore } from './credentialStore';

/**
 * Forget everything stored for a server URL: tokens, registered clients, the binding of a configured
 * client, discovery. Configured secrets stay where they are (settings / secret storage).
 * Returns whether anything was stored.
 */
export async function signOut(serverUrl: string, store: CredentialStore, onEvent?: AuthEventListener): Promise<boolean> {
  const hadCredentials = await store.forget(serverUrl);
  onEvent?.({ type: 'signedOut', serverUrl, hadCredentials });
  return hadCredentials;
}
