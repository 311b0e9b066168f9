'use strict';
const assert = require('assert');
const vscode = require('vscode');
const h = require('../../extension/helpers');

describe('untrusted workspace: the gateway for the editor\'s agents', () => {
  after(async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('gateway.enabled', undefined, vscode.ConfigurationTarget.Global);
  });

  it('turned on, it offers the editor nothing and says why: MCP Host starts no server here', async () => {
    const { api } = await h.hostApi();
    await vscode.commands.executeCommand('mcpHost.enableGateway');
    await h.waitFor('the gateway status "untrusted"', () => api.gateway.status.kind === 'untrusted', { timeout: 10000 });
    assert.deepStrictEqual(api.gateway.provideMcpServerDefinitions(), []);
    assert.strictEqual(api.gateway.resolveMcpServerDefinition(), undefined);
    await h.waitFor('the output line', () => /gateway: the workspace is not trusted, so MCP Host starts no server and offers the editor none/.test(h.outputChannelLog()), { timeout: 10000 });
  });
});
