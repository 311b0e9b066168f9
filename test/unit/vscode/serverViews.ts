/** ServerView values for adapter tests, derived from a state the way the host's snapshot derives them. */
import type { ServerView } from '../../../src/core/host/hostSnapshot';
import { ConnectionState } from '../../../src/core/mcp/connectionState';
import type { ServerSettings } from '../../../src/core/settings/hostSettings';

const defaultSettings: ServerSettings = { name: 'x', type: 'stdio', enabled: true, connectTimeoutMs: 15000, command: 'node', args: [], env: {} };

export function serverView(name: string, state: ConnectionState, extra: Partial<ServerView> = {}): ServerView {
  const failure = ConnectionState.failure(state);
  const restartReason = ConnectionState.restartReason(state);
  const issuer = ConnectionState.signInIssuer(state);
  return {
    name,
    settings: { ...defaultSettings, name, enabled: state.kind !== 'disabled' },
    state,
    description: ConnectionState.describe(state),
    usedByRole: true,
    running: ConnectionState.isRunning(state),
    connected: ConnectionState.isConnected(state),
    settling: ConnectionState.isSettling(state),
    canStart: ConnectionState.canStart(state),
    ...(ConnectionState.isConnected(state) ? { info: state.info } : {}),
    ...(failure !== undefined ? { failure } : {}),
    needsSignIn: ConnectionState.needsSignIn(state),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(restartReason !== undefined ? { restartReason } : {}),
    toolCount: 0,
    visibleToolCount: 0,
    history: [],
    quarantinedCount: 0,
    pendingReview: false,
    ...extra,
  };
}
