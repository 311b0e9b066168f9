import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { listedTool } from '../../../../src/core/mcp/listedTool';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object' } });

describe('listedTool', () => {
  it('finds what tools.find finds: the first of a name, nothing for an unknown name', () => {
    const list = [tool('a', 'first a'), tool('b', 'b'), tool('a', 'second a')];
    assert.equal(listedTool(list, 'a'), list[0]);
    assert.equal(listedTool(list, 'b'), list[1]);
    assert.equal(listedTool(list, 'c'), undefined);
    assert.equal(listedTool([], 'a'), undefined);
  });

  it('a new listing is looked up in itself, not in the index of the one before', () => {
    const before = [tool('a', 'old')];
    assert.equal(listedTool(before, 'a')?.description, 'old');
    const after = [tool('a', 'new'), tool('z', 'z')];
    assert.equal(listedTool(after, 'a')?.description, 'new');
    assert.equal(listedTool(after, 'z'), after[1]);
    assert.equal(listedTool(before, 'z'), undefined);
  });
});
