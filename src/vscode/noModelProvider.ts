import * as vscode from 'vscode';

/** The vendor of MCP Host's stand-in model (package.json `languageModelChatProviders`). */
export const NO_MODEL_VENDOR = 'mcp-host';

/** What the Chat view says when a request needs a language model and none is installed. */
export const NO_MODEL_MESSAGE =
  'No language model is installed, so MCP Host cannot answer questions yet. `/tools`, `/servers`, `/resources`, `/role` and `/prompt` (the list) ' +
  'work without one. To ask questions, install a chat model provider from the Extensions view (for example GitHub Copilot Chat, ' +
  'or a provider for a local model), sign in if it asks, pick its model in the Chat view, and ask again.';

const STAND_IN: vscode.LanguageModelChatInformation & { isUserSelectable?: boolean } = {
  id: 'no-model',
  name: 'No language model (MCP Host)',
  family: 'none',
  version: '1.0.0',
  tooltip: 'Stands in while no chat model is installed, so @mcp /tools, /servers, /resources and /role work; it answers nothing else.',
  detail: 'install a chat model',
  maxInputTokens: 1_000_000,
  maxOutputTokens: 1_000,
  // The Chat view's agent mode lists only models that can call tools; the stand-in never calls one.
  capabilities: { toolCalling: true, imageInput: false },
  isUserSelectable: true,
};

/** Whether `model` is the stand-in (not a model that can answer). */
export function isStandIn(model: Pick<vscode.LanguageModelChat, 'vendor'> | undefined): boolean {
  return model?.vendor === NO_MODEL_VENDOR;
}

/**
 * The editor runs a chat participant only with a language model: without one, every `@mcp`
 * request fails with "Language model unavailable" before MCP Host sees it, even `/tools`. While
 * no other chat model is available, MCP Host offers a stand-in model; its requests answer the
 * commands that need no model, and it tells anyone who asks it a question how to get a model.
 * As soon as another model appears, the stand-in is withdrawn (and offered again if none is left).
 */
export function registerNoModelStandIn(log: (message: string) => void): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  // Decided outside the provider (which the editor calls while it lists models) from the others' list;
  // not offered until that list was seen empty, so a person with a model never sees the stand-in.
  let offer = false;
  const provider: vscode.LanguageModelChatProvider = {
    onDidChangeLanguageModelChatInformation: changed.event,
    provideLanguageModelChatInformation: () => (offer ? [STAND_IN] : []),
    async provideLanguageModelChatResponse(_model, _messages, _options, progress) {
      progress.report(new vscode.LanguageModelTextPart(NO_MODEL_MESSAGE));
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : JSON.stringify(text.content)).length / 4),
  };
  let checking = Promise.resolve();
  const recheck = () => {
    checking = checking.then(async () => {
      const others = (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== NO_MODEL_VENDOR);
      if ((others.length === 0) === offer) return;
      offer = others.length === 0;
      log(offer ? 'no language model is available: offering the stand-in for @mcp commands' : `language model available (${others[0].name}): the stand-in is withdrawn`);
      changed.fire();
    }).catch((e) => log(`listing language models failed: ${e instanceof Error ? e.message : String(e)}`));
  };
  const registration = vscode.lm.registerLanguageModelChatProvider(NO_MODEL_VENDOR, provider);
  const subscription = vscode.lm.onDidChangeChatModels(recheck);
  recheck();
  return { dispose: () => (subscription.dispose(), registration.dispose(), changed.dispose()) };
}
