/** Which stderr line explains a failed start (the real Node case is in test/unit/cli/checkCommand.test.ts). */
import * as assert from 'node:assert/strict';
import { StderrTail } from '../../../../src/core/mcp/startFailure';

const tailOf = (text: string) => {
  const tail = new StderrTail(() => undefined);
  for (const line of text.split('\n')) tail.push(line);
  return tail;
};

describe('StderrTail', () => {
  it('names the error line of a Python traceback, even when it is the last line', () => {
    const t = tailOf(`Traceback (most recent call last):\n  File "/srv/server.py", line 3, in <module>\n    import mcp_missing\nModuleNotFoundError: No module named 'mcp_missing'\n`);
    assert.equal(t.hint(), "; stderr: ModuleNotFoundError: No module named 'mcp_missing'");
  });

  it('keeps the error line after the stack scrolled it out of the tail; clear() forgets it', () => {
    const frames = Array.from({ length: 20 }, (_, i) => `    at frame${i} (file.js:${i}:1)`).join('\n');
    const t = tailOf(`Error: Cannot find module '/srv/missing.js'\n${frames}\n  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2`);
    assert.equal(t.hint(), "; stderr: Error: Cannot find module '/srv/missing.js'");
    t.clear();
    assert.equal(t.hint(), '');
  });

  it('without an error line: the last lines that are not stack frames or footers', () => {
    assert.equal(tailOf('listening on stdio\nbad config at line 4\n}\nNode.js v20.20.2').hint(), '; last stderr: listening on stdio | bad config at line 4');
    assert.equal(tailOf('}\n').hint(), '; last stderr: }');
  });
});
