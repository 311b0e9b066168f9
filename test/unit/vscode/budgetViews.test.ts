import './fakeVscode';
import * as assert from 'node:assert/strict';
import { budgetTreeNode } from '../../../src/vscode/budgetTreeNode';
import { toolsMarkdown } from '../../../src/vscode/slashCommands';
import { toTreeItem } from '../../../src/vscode/treeItems';

describe('tool budget in the views', () => {
  it('the tree\'s first row: role, tools, tokens and whether it is over budget', () => {
    const over = budgetTreeNode({ role: 'ops', tools: 400, tokens: 41600, budget: { maxTools: 128 }, over: true, model: 'GPT-X' });
    assert.equal(over.label, 'Role ops: 400 tools');
    assert.equal(over.description, '41,600 tokens · over budget (128 tools)');
    assert.equal(over.icon, 'warning');
    assert.match(over.tooltip!, /counted with the tokenizer of GPT-X/);
    assert.match(over.tooltip!, /search_tools/);
    const within = budgetTreeNode({ role: undefined, tools: 1, budget: { maxTools: 128, maxToolTokens: 9000 }, over: false });
    assert.equal(within.label, 'No role: 1 tool');
    assert.equal(within.description, 'tokens not counted (no chat model) · budget 128 tools, 9,000 tokens');
    assert.equal(toTreeItem(within).label, 'No role: 1 tool');
  });

  it('/tools says what the definitions cost', () => {
    const text = toolsMarkdown('ops', [{ name: 'a__b', server: 'a', rule: 'ask' }], [], '1 tool · 120 tokens · budget 128 tools');
    assert.match(text, /^Budget: 1 tool · 120 tokens · budget 128 tools$/m);
    assert.doesNotMatch(toolsMarkdown('ops', []), /Budget:/);
  });
});
