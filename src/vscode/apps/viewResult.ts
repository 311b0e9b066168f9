import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolCallResult } from '../../core/calls/toolRouter';

/** What the view gets for its call: the server's content, or the host's refusal as an error result. */
export function toViewResult(r: ToolCallResult): CallToolResult {
  if (r.content.length || r.structuredContent) {
    return {
      content: r.content as CallToolResult['content'],
      ...(r.structuredContent ? { structuredContent: r.structuredContent } : {}),
      ...(r.meta ? { _meta: r.meta } : {}),
      isError: r.isError,
    };
  }
  return { content: [{ type: 'text', text: r.modelText }], isError: true };
}
