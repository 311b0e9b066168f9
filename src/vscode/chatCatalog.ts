import type * as vscode from 'vscode';
import { promptMessages, resourceMessage } from '../core/agent/contextMessages';
import type { AgentMessage } from '../core/agent/agentMessages';
import type { McpHost } from '../core/host/mcpHost';
import { OPEN_APP_VIEW } from './apps/appViews';
import { askArgument } from './argumentInput';
import { resourcesMarkdown, promptsMarkdown } from './catalogMarkdown';
import { parseResourceReferences } from './chatReferences';
import { escapeMarkdown } from './escapeMarkdown';
import { parsePromptCommand } from './promptCommandParser';

/** What an `@mcp` request adds before its own text: a prompt's messages and attached resources. */
export interface ChatContextMessages {
  readonly prelude: readonly AgentMessage[];
  /** The user's text that follows them (without the `/prompt` name and arguments). */
  readonly text: string;
}

/** `@mcp /resources`, `@mcp /prompt …` and `#mcp:server/uri` attachments, over `host.catalog`. */
export class ChatCatalog {
  constructor(private readonly host: () => McpHost) {}

  resources(stream: vscode.ChatResponseStream): void {
    const s = this.host().snapshot();
    stream.markdown(resourcesMarkdown(s.role, s.visibleResources(), s.visibleResourceTemplates()));
  }

  /**
   * `/prompt [server/]NAME [arg=value …] [text]`: asks for missing arguments (with the server's
   * completions), gets the prompt (audited) and returns its messages; undefined when it answered
   * by itself (a list, an unknown name, a cancelled question, a refused or failed prompt).
   */
  async prompt(promptText: string, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<ChatContextMessages | undefined> {
    const host = this.host();
    const s = host.snapshot();
    const visible = s.visiblePrompts();
    const parsed = parsePromptCommand(promptText, visible);
    if (parsed.kind === 'list') {
      stream.markdown(promptsMarkdown(s.role, visible));
      return undefined;
    }
    if (parsed.kind === 'unknown') {
      const why = parsed.candidates.length > 1 ? `is offered by several servers: name it as \`server/${parsed.name}\`` : 'is not available to this role';
      stream.markdown(promptsMarkdown(s.role, visible, `The prompt \`${parsed.name.replace(/`/g, "'")}\` ${why}.`));
      return undefined;
    }
    const { server, prompt } = parsed.prompt;
    const args: Record<string, string> = { ...parsed.args };
    const completes = !!s.server(server)?.info?.capabilities.completions;
    for (const a of prompt.arguments ?? []) {
      if (args[a.name] !== undefined) continue;
      const value = await askArgument({
        title: `Prompt ${prompt.title ?? prompt.name} (${server}): ${a.name}`,
        name: a.name,
        description: a.description,
        required: !!a.required,
        complete: completes
          ? async (v) => (await host.catalog.complete({ server, ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: a.name, value: v }, context: args })).values
          : undefined,
      });
      if (value === undefined || signal.aborted) {
        stream.markdown(`Cancelled: the prompt \`${server}/${prompt.name}\` was not used.`);
        return undefined;
      }
      if (value !== '') args[a.name] = value;
    }
    stream.progress(`Getting prompt ${server}/${prompt.name}…`);
    const result = await host.catalog.getPrompt({ server, name: prompt.name, args, signal });
    if (result.outcome !== 'ok') {
      stream.markdown(`The prompt \`${server}/${prompt.name}\` could not be used (${result.outcome}): ${escapeMarkdown(result.text)}`);
      return undefined;
    }
    return { prelude: promptMessages(result.messages, host.settings.maxResultChars), text: parsed.rest };
  }

  /** Read every `#mcp:server/uri` of the request for the model (audited as purpose "chat"); say which could not be attached; a `ui://` view gets a button that opens it. */
  async attachments(text: string, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<AgentMessage[]> {
    const host = this.host();
    const out: AgentMessage[] = [];
    for (const ref of parseResourceReferences(text)) {
      // A view is shown, not read to the model: its button opens it in an editor panel.
      if (ref.uri.startsWith('ui://')) {
        stream.button({ command: OPEN_APP_VIEW, title: `Open the app view ${ref.uri}`, arguments: [{ server: ref.server, uri: ref.uri }] });
        continue;
      }
      stream.progress(`Reading ${ref.uri} from ${ref.server}…`);
      const read = await host.catalog.readResource({ server: ref.server, uri: ref.uri, purpose: 'chat', signal });
      if (read.outcome === 'ok') out.push(resourceMessage(ref.server, ref.uri, read.contents, host.settings.maxResultChars));
      else stream.markdown(`_Not attached: \`${ref.text.replace(/`/g, "'")}\` (${read.outcome}: ${escapeMarkdown(read.text)})._\n\n`);
    }
    return out;
  }
}
