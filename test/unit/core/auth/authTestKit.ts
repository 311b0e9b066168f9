/**
 * Shared plumbing for the auth tests: a fixture per test (always closed), a credentials file in a
 * temp folder, and a "host" that connects the SDK Client over Streamable HTTP with the host's
 * providers, signing in through the fetch browser when the server asks.
 */
import { HOST_ISSUER_CHECK } from '../../../../src/core/auth/metadataIssuer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { ChallengeRecorder } from '../../../../src/core/auth/authChallenge';
import type { AuthEvent } from '../../../../src/core/auth/authEvents';
import { FileCredentialStore } from '../../../../src/core/auth/fileCredentialStore';
import { HostOAuthProvider } from '../../../../src/core/auth/hostOAuthProvider';
import type { OAuthSettings } from '../../../../src/core/settings/oauthSettings';
import { signIn, type SignInResult } from '../../../../src/core/auth/signIn';
import { withSignIn } from '../../../../src/core/auth/withSignIn';
import { startAuthFixture, type AuthFixture, type AuthFixtureOptions } from '../../../fixtures/auth/authFixture';
import { createFetchBrowser } from '../../../fixtures/auth/fetchBrowser';

export class AuthTestKit {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-auth-'));
  readonly credentialsFile = path.join(this.dir, 'config', 'mcp-host', 'credentials.json');
  readonly store = new FileCredentialStore(this.credentialsFile);
  readonly events: AuthEvent[] = [];
  readonly browser = createFetchBrowser();
  readonly signIns: SignInResult[] = [];
  private fixtures: AuthFixture[] = [];
  private clients: Client[] = [];

  async fixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
    const f = await startAuthFixture(options);
    this.fixtures.push(f);
    return f;
  }

  signIn(serverUrl: string, settings?: OAuthSettings, extra: Partial<Parameters<typeof signIn>[0]> = {}): Promise<SignInResult> {
    return signIn({
      serverUrl,
      store: this.store,
      ...(settings ? { settings } : {}),
      openUrl: this.browser.open,
      timeoutMs: 20_000,
      onEvent: (e) => this.events.push(e),
      ...extra,
    }).then((r) => {
      this.signIns.push(r);
      return r;
    });
  }

  /**
   * A connected client the way the host will run one: the idle provider on the transport, the
   * challenge recorder as its fetch, and `withSignIn` around connect and every request.
   */
  async connect(serverUrl: string, settings?: OAuthSettings, provider?: OAuthClientProvider) {
    const challenges = new ChallengeRecorder(serverUrl);
    const authProvider = provider ?? new HostOAuthProvider({ serverUrl, store: this.store, ...(settings ? { settings } : {}) });
    const client = new Client({ name: 'auth-test', version: '1.0.0' });
    this.clients.push(client);
    const run = <T>(op: () => Promise<T>) =>
      withSignIn(op, { challenges, signIn: (challenge) => this.signIn(serverUrl, settings, challenge ? { challenge } : {}) });
    await run(() => client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider, fetch: challenges.fetch, ...HOST_ISSUER_CHECK })));
    return {
      client,
      run,
      listTools: () => run(() => client.listTools()),
      callTool: (name: string, args: Record<string, unknown> = {}) => run(() => client.callTool({ name, arguments: args })),
      close: () => client.close(),
    };
  }

  /** The stored document, as a user would find it. */
  storedText(): string {
    return fs.existsSync(this.credentialsFile) ? fs.readFileSync(this.credentialsFile, 'utf8') : '';
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
    await Promise.allSettled(this.fixtures.map((f) => f.close()));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
