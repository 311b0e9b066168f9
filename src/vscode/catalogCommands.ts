import { UriTemplate } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { DisposableStore } from '../core/util/event';
import { askArgument } from './argumentInput';
import { CATALOG_COMMANDS } from './catalogTreeItems';
import { resourceReference } from './chatReferences';
import { errorText, type HostController } from './hostController';
import type { OutputLogger } from './outputLogger';
import { ResourceDocuments } from './resourceDocuments';
import type { PromptNode, ResourceNode, ResourceTemplateNode } from './treeNodes';

/** The participant's id as the chat's `@` name, for Use in Chat. */
const PARTICIPANT_NAME = 'mcp';

/** Open Resource, Read Resource… (templates), Use in Chat (prompts), Copy Resource Reference. */
export function registerCatalogCommands(controller: HostController, logger: OutputLogger): vscode.Disposable {
  const host = () => controller.host;
  const store = new DisposableStore();
  const documents = store.add(new ResourceDocuments(host));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a command's arguments are whatever its caller passes
  const register = (id: string, run: (...args: any[]) => unknown) =>
    store.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await run(...args);
        } catch (e) {
          logger.error(`${id}: ${errorText(e)}`);
          void vscode.window.showErrorMessage(`MCP Host: ${errorText(e)}`);
          return undefined;
        }
      }),
    );

  // From the tree (a ResourceNode) or from a test/another command ({ server, uri }).
  register(CATALOG_COMMANDS.openResource, (node: ResourceNode | { server: string; uri: string }) => {
    const uri = 'resource' in node ? node.resource.uri : node.uri;
    return documents.show(node.server, uri);
  });

  register(CATALOG_COMMANDS.readResourceTemplate, async (node: ResourceTemplateNode) => {
    const t = node.template;
    const template = new UriTemplate(t.uriTemplate);
    const values: Record<string, string> = {};
    for (const name of template.variableNames) {
      const value = await askArgument({
        title: `${t.title ?? t.name} (${node.server}): ${name}`,
        name,
        description: t.uriTemplate,
        required: true,
        complete: async (v) =>
          (await host().catalog.complete({ server: node.server, ref: { type: 'ref/resource', uri: t.uriTemplate }, argument: { name, value: v }, context: values })).values,
      });
      if (value === undefined) return undefined;
      values[name] = value;
    }
    return documents.show(node.server, template.expand(values));
  });

  register(CATALOG_COMMANDS.usePromptInChat, async (node: PromptNode) => {
    const query = `@${PARTICIPANT_NAME} /prompt ${node.server}/${node.prompt.name} `;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true });
  });

  register(CATALOG_COMMANDS.copyResourceReference, async (node: ResourceNode) => {
    const ref = resourceReference(node.server, node.resource.uri);
    await vscode.env.clipboard.writeText(ref);
    vscode.window.setStatusBarMessage(`Copied "${ref}": put it in an @mcp request to attach the resource`, 4000);
  });

  return store;
}
