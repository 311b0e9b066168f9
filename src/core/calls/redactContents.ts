import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';

type Contents = ReadResourceResult['contents'];
type Messages = GetPromptResult['messages'];

/** Resource contents with the server's secret values masked in every text. */
export function redactContents(contents: Contents, redact: (t: string) => string): Contents {
  return contents.map((c) => ('text' in c && typeof c.text === 'string' ? { ...c, text: redact(c.text) } : c));
}

/** Prompt messages with the server's secret values masked in every text (embedded resources too). */
export function redactMessages(messages: Messages, redact: (t: string) => string): Messages {
  return messages.map((m) => {
    const c = m.content;
    if (c.type === 'text') return { ...m, content: { ...c, text: redact(c.text) } };
    if (c.type === 'resource' && 'text' in c.resource && typeof c.resource.text === 'string') {
      return { ...m, content: { ...c, resource: { ...c.resource, text: redact(c.resource.text) } } };
    }
    return m;
  });
}
