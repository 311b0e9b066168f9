'use strict';
/*
 * Test-only extension (test/integration/gateway/run.js, part 2): "Gateway Test: Invoke the Requested
 * MCP Tool" reads { tool, input } from $MCP_HOST_TEST_INVOKE_REQUEST, where `tool` is the end of a
 * tool name of the editor's MCP support (e.g. "basic__add"), starts the editor's MCP servers, calls
 * the tool with vscode.lm.invokeTool (no chat request: the editor then asks in a modal dialog, as
 * MCP Host does) and appends { tool, text } or { tool, error } to $MCP_HOST_TEST_INVOKE_RESULT.
 */
const fs = require('fs');
const vscode = require('vscode');

async function findTool(suffix) {
  const deadline = Date.now() + 45000;
  for (;;) {
    const tool = vscode.lm.tools.find((t) => (t.tags || []).includes('mcp') && t.name.endsWith(suffix));
    if (tool) return tool;
    if (Date.now() > deadline) throw new Error(`no MCP tool named *${suffix} in vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
    await new Promise((r) => setTimeout(r, 500));
  }
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('mcpHostGatewayTest.invokeTool', async () => {
      const request = JSON.parse(fs.readFileSync(process.env.MCP_HOST_TEST_INVOKE_REQUEST, 'utf8'));
      let outcome;
      try {
        const tool = await findTool(request.tool);
        const result = await vscode.lm.invokeTool(tool.name, { input: request.input, toolInvocationToken: undefined });
        outcome = { tool: request.tool, text: result.content.map((p) => (typeof p.value === 'string' ? p.value : '')).join('') };
      } catch (e) {
        outcome = { tool: request.tool, error: String((e && e.message) || e) };
      }
      fs.appendFileSync(process.env.MCP_HOST_TEST_INVOKE_RESULT, `${JSON.stringify(outcome)}\n`);
    }),
  );
};
