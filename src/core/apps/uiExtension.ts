import type { ClientFeature } from '../mcp/clientFeature';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from './uiMeta';

/**
 * Declares the MCP Apps extension in `initialize` (`capabilities.extensions["io.modelcontextprotocol/ui"]`
 * with the MIME types the host renders), so servers such as server-pdf offer their views. Nothing to
 * install: a view's requests reach the server through the host's router, not through this client.
 */
export const UI_EXTENSION_FEATURE: ClientFeature = {
  capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } },
  install: () => undefined,
};
