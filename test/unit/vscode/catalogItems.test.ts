import './fakeVscode';
import * as assert from 'node:assert/strict';
import type { PromptView, ResourceTemplateView, ResourceView } from '../../../src/core/host/hostSnapshot';
import { folderDescription, promptDescription, resourceDescription } from '../../../src/vscode/catalogTreeItems';
import { promptsMarkdown, resourcesMarkdown } from '../../../src/vscode/catalogMarkdown';
import { parseResourceReferences, resourceReference } from '../../../src/vscode/chatReferences';
import { parsePromptCommand } from '../../../src/vscode/promptCommandParser';
import { resourceFileName, resourceText } from '../../../src/vscode/resourceDocumentName';
import { toTreeItem } from '../../../src/vscode/treeItems';
import type { PromptNode, ResourceNode } from '../../../src/vscode/treeNodes';

const doc: ResourceView = { server: 'docs', resource: { uri: 'file:///guides/intro.md', name: 'intro.md', title: 'Intro', mimeType: 'text/markdown' }, visible: true };
const image: ResourceView = { server: 'docs', resource: { uri: 'file:///logo', name: 'logo', mimeType: 'image/png' }, visible: false };
const template: ResourceTemplateView = { server: 'docs', template: { uriTemplate: 'file:///guides/{name}', name: 'guide' }, visible: true };
const greet: PromptView = { server: 'docs', prompt: { name: 'greet', description: 'Greets\nsomeone', arguments: [{ name: 'name', required: true }, { name: 'tone' }] }, visible: true };
const other: PromptView = { server: 'kb', prompt: { name: 'greet' }, visible: true };

describe('resources and prompts in the tree', () => {
  it('a readable resource opens on click; a hidden one says why and has no command', () => {
    const node: ResourceNode = { kind: 'resource', role: 'support', ...doc };
    const item = toTreeItem(node);
    assert.equal(item.label, 'Intro');
    assert.equal(item.description, 'file:///guides/intro.md');
    assert.equal(item.contextValue, 'mcpResource mcpResource.readable');
    assert.deepEqual(item.command?.command, 'mcpHost.openResource');
    const hidden = toTreeItem({ kind: 'resource', role: 'support', ...image });
    assert.equal(hidden.command, undefined);
    assert.equal(hidden.contextValue, 'mcpResource');
    assert.equal(resourceDescription({ kind: 'resource', role: 'support', ...image }), 'hidden for role support · file:///logo');
  });

  it('a prompt shows its arguments (optional ones with "?") and offers Use in Chat when usable', () => {
    const node: PromptNode = { kind: 'prompt', role: undefined, ...greet };
    assert.equal(promptDescription(node), '(name, tone?) · Greets');
    assert.equal(toTreeItem(node).contextValue, 'mcpPrompt mcpPrompt.usable');
    assert.equal(toTreeItem({ ...node, visible: false }).contextValue, 'mcpPrompt');
  });

  it('folders count what the role may use', () => {
    assert.equal(folderDescription({ kind: 'catalog', server: 'docs', section: 'resources', count: 3, visibleCount: 3, role: undefined }), '3');
    assert.equal(folderDescription({ kind: 'catalog', server: 'docs', section: 'prompts', count: 4, visibleCount: 1, role: 'ops' }), '1 of 4 for role ops');
    assert.equal(toTreeItem({ kind: 'catalog', server: 'docs', section: 'prompts', count: 4, visibleCount: 1, role: 'ops' }).label, 'Prompts');
  });
});

describe('chat: /resources, /prompt and #mcp: references', () => {
  it('finds #mcp:server/uri references, once each, without trailing punctuation', () => {
    const refs = parseResourceReferences('Compare #mcp:docs/file:///a.md and #mcp:kb/demo://x/y?z=1, then #mcp:docs/file:///a.md. Not a#mcp:x/y or #mcp:noslash');
    assert.deepEqual(
      refs.map((r) => [r.server, r.uri]),
      [
        ['docs', 'file:///a.md'],
        ['kb', 'demo://x/y?z=1'],
      ],
    );
    assert.equal(resourceReference('docs', 'file:///a.md'), '#mcp:docs/file:///a.md');
  });

  it('parses /prompt NAME with inline arguments (quoted too) and the rest of the text', () => {
    const r = parsePromptCommand('docs/greet name="Ada Lovelace" tone=warm please be brief', [greet, other]);
    assert.equal(r.kind, 'use');
    if (r.kind !== 'use') return;
    assert.equal(r.prompt.server, 'docs');
    assert.deepEqual(r.args, { name: 'Ada Lovelace', tone: 'warm' });
    assert.equal(r.rest, 'please be brief');
    // Undeclared keys stay in the text.
    const s = parsePromptCommand('docs/greet x=1 name=Bo', [greet]);
    assert.deepEqual(s.kind === 'use' && [s.args, s.rest], [{}, 'x=1 name=Bo']);
    assert.deepEqual(parsePromptCommand('', [greet]), { kind: 'list' });
    const ambiguous = parsePromptCommand('greet', [greet, other]);
    assert.equal(ambiguous.kind === 'unknown' && ambiguous.candidates.length, 2);
    assert.equal(parsePromptCommand('greet', [greet]).kind, 'use');
  });

  it('lists resources with their references, and says what a role without globs needs', () => {
    const md = resourcesMarkdown('support', [doc], [template]);
    assert.match(md, /\| Intro \| docs \| text\/markdown \| `#mcp:docs\/file:\/\/\/guides\/intro\.md` \|/);
    assert.match(md, /`#mcp:docs\/file:\/\/\/guides\/\{name\}`/);
    assert.match(resourcesMarkdown('support', [], []), /mcpHost\.roles\.support\.resources/);
    assert.match(promptsMarkdown(undefined, [greet]), /\| `docs\/greet` \| name, tone\? \| Greets \|/);
  });

  it('names resource documents after the resource, with an extension from its MIME type', () => {
    assert.equal(resourceFileName('demo://resource/static/document/architecture.md', 'text/markdown'), 'architecture.md');
    assert.equal(resourceFileName('demo://resource/dynamic/text/3', 'text/plain'), '3.txt');
    assert.equal(resourceFileName('x://host/', 'application/json', 'data'), 'data.json');
    assert.equal(resourceFileName('x://a/b%2Fc?q=1'), 'b_c');
    assert.equal(resourceText([{ uri: 'a', text: 'one' }, { uri: 'b', mimeType: 'image/png', blob: 'AAAA' }]), 'one\n\n[binary image/png of b: 4 base64 characters]');
  });
});
