import type { McpUiUpdateModelContextRequest } from '@modelcontextprotocol/ext-apps/app-bridge';
import { appContextMessage } from '../../core/agent/contextMessages';
import type { AgentMessage } from '../../core/agent/agentMessages';

interface ViewContext {
  readonly server: string;
  readonly view: string;
  readonly context: McpUiUpdateModelContextRequest['params'];
}

/**
 * What open app views asked to put in the model's context (`ui/update-model-context`): the last
 * update of each view (a new one replaces it, as the spec says), until the view closes. Every
 * `@mcp` request carries them, each marked as coming from the view and capped like a tool result.
 */
export class AppModelContexts {
  private readonly views = new Map<string, ViewContext>();

  set(id: string, server: string, view: string, context: McpUiUpdateModelContextRequest['params']): void {
    this.views.set(id, { server, view, context });
  }

  delete(id: string): void {
    this.views.delete(id);
  }

  messages(maxChars: number): AgentMessage[] {
    return [...this.views.values()].map((v) => appContextMessage(v.server, v.view, v.context as Parameters<typeof appContextMessage>[2], maxChars));
  }
}
