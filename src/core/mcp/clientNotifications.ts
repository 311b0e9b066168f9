import type { Client } from '@modelcontextprotocol/client';
import { errorText } from '../util/errorText';
import { mcpLevelToLogLevel, type Logger } from '../util/logger';
import type { ServerInfo } from './connectionState';

export interface NotificationHooks {
  readonly name: string;
  readonly logger: Logger;
  /** Masks the server's secret values. */
  readonly redact: (text: string) => string;
  readonly onListChanged: () => void;
  /** The connection ended (the client's transport closed). */
  readonly onClose: () => void;
}

/**
 * Route a connected client's events: its close, transport errors (to the debug log, redacted),
 * `notifications/message` to the log (redacted), `notifications/tools/list_changed` to a refresh
 * (only for servers that declare tools). Returns what initialize told us.
 */
export function wireNotifications(client: Client, protocolVersion: string | undefined, h: NotificationHooks): ServerInfo {
  client.onclose = h.onClose;
  client.onerror = (err) => h.logger.debug(`[${h.name}] transport: ${h.redact(errorText(err))}`);
  client.setNotificationHandler('notifications/message', (n) => {
    const p = n.params;
    const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
    h.logger[mcpLevelToLogLevel(p.level)](`[${h.name}]${p.logger ? ` ${p.logger}:` : ''} ${h.redact(data)}`);
  });
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities.tools) {
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      h.logger.debug(`[${h.name}] notifications/tools/list_changed`);
      h.onListChanged();
    });
  }
  const era = client.getProtocolEra();
  return { protocolVersion, ...(era ? { era } : {}), serverInfo: client.getServerVersion(), capabilities, instructions: client.getInstructions() };
}
