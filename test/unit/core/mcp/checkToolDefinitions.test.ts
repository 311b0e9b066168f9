/** Each tool of a tools/list page checked on its own: the good ones stay, each bad one is said in words. */
import * as assert from 'node:assert/strict';
import { checkToolDefinitions } from '../../../../src/core/mcp/checkToolDefinitions';

const OBJ = { type: 'object' };
const ZOD_DUMP = /invalid_type|invalid_union|invalid_literal|"path":|"expected":|"code":/;

describe('checkToolDefinitions', () => {
  it('keeps valid tools, drops each malformed one with its reason', () => {
    const { tools, problems } = checkToolDefinitions([
      { name: 'good', inputSchema: OBJ },
      { name: 'noType', inputSchema: { properties: { a: { type: 'string' } } } },
      { name: 'typeString', inputSchema: { type: 'string' } },
      { name: 'notObject', inputSchema: 'nope' },
      { description: 'a tool without a name', inputSchema: OBJ },
      { name: 'badOut', inputSchema: OBJ, outputSchema: { type: 'object', properties: 5 } },
      { name: 'bogusType', inputSchema: OBJ, outputSchema: { type: 'object', properties: { a: { type: 'bogus' } } } },
      42,
      { name: 'also good', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, outputSchema: OBJ },
    ]);
    assert.deepEqual(tools.map((t) => t.name), ['good', 'also good']);
    assert.deepEqual(problems.map((p) => [p.tool, p.loaded]), [
      ['noType', false],
      ['typeString', false],
      ['notObject', false],
      ['#5', false],
      ['badOut', false],
      ['bogusType', false],
      ['#8', false],
    ]);
    assert.match(problems[0].message, /^tool "noType" is not loaded: its inputSchema must have "type": "object" \(got no "type"\)$/);
    assert.match(problems[1].message, /got "string"/);
    assert.match(problems[2].message, /its inputSchema is not an object \(got string\)/);
    assert.match(problems[3].message, /entry 5 of tools\/list has no name \(description: "a tool without a name"\)/);
    assert.match(problems[4].message, /its outputSchema is not a valid JSON Schema/);
    assert.match(problems[5].message, /its outputSchema is not a valid JSON Schema/);
    for (const p of problems) assert.doesNotMatch(p.message, ZOD_DUMP);
  });

  it('a malformed optional part (description, annotations) is dropped, the tool kept, and that is said', () => {
    const { tools, problems } = checkToolDefinitions([{ name: 'bad', description: 42, annotations: 'x', inputSchema: OBJ }]);
    assert.deepEqual(tools, [{ name: 'bad', inputSchema: OBJ }]);
    assert.deepEqual(
      problems.map((p) => [p.message, p.loaded]),
      [
        ['tool "bad" is loaded without its description, which is malformed', true],
        ['tool "bad" is loaded without its annotations, which is malformed', true],
      ],
    );
  });

  it('numbers entries across pages by the offset', () => {
    assert.equal(checkToolDefinitions([{}], 10).problems[0].tool, '#11');
  });
});
