'use strict';
const vscode = require('vscode');

/** What the @smoke participant saw, for the tests (exported from activate). */
const chatRequests = [];

function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand('mcpHostSmoke.hello', (name) => `hello ${name || 'world'}`));

  // @smoke: forwards the prompt to request.model (the model picked in the Chat view) and streams
  // its text back.
  const participant = vscode.chat.createChatParticipant('mcpHostSmoke.agent', async (request, chatContext, stream, token) => {
    const rec = {
      prompt: request.prompt,
      model: request.model ? { vendor: request.model.vendor, id: request.model.id } : null,
      history: chatContext.history.length,
    };
    chatRequests.push(rec);
    try {
      const response = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(request.prompt)], {}, token);
      let text = '';
      for await (const chunk of response.text) {
        text += chunk;
        stream.markdown(chunk);
      }
      rec.answer = text;
    } catch (e) {
      rec.error = String((e && e.message) || e);
      stream.markdown(`error: ${rec.error}`);
    }
    rec.done = true;
    return {};
  });
  context.subscriptions.push(participant);

  return { activatedAt: Date.now(), chatRequests };
}

module.exports = { activate, deactivate() {} };
