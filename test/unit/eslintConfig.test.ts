/**
 * The layer rules of eslint.config.mjs, proven on code that breaks them: each snippet is linted as
 * if it were the named file, with the repository's own config.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const REPO = path.resolve(__dirname, '..', '..');

async function problems(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO });
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('eslint config: layers', function () {
  this.timeout(60000);

  it('keeps vscode out of the core, the CLI, scripts and benchmarks', async () => {
    for (const file of ['src/core/host/probe.ts', 'src/cli/probe.ts', 'bench/probe.ts', 'test/unit/core/probe.ts']) {
      assert.match((await problems(file, "import type * as vscode from 'vscode';\nexport type V = typeof vscode;\n")).join('\n'), /may import vscode/, file);
    }
    assert.match((await problems('scripts/probe.js', "'use strict';\nmodule.exports = require('vscode');\n")).join('\n'), /may import vscode/);
    assert.match((await problems('src/cli/probe.ts', "export const v = import('vscode');\n")).join('\n'), /may import vscode/);
  });

  it('lets the editor adapters and the editor tests import vscode', async () => {
    const code = "import * as vscode from 'vscode';\nexport const v = vscode;\n";
    for (const file of ['src/vscode/probe.ts', 'src/extension.ts', 'test/unit/vscode/probe.ts']) assert.deepEqual(await problems(file, code), [], file);
    assert.deepEqual(await problems('test/integration/probe.js', "'use strict';\nmodule.exports = require('vscode');\n"), []);
  });

  it('keeps the core independent of the CLI and the editor layer, and the CLI of the editor layer', async () => {
    assert.match((await problems('src/core/host/probe.ts', "export { main } from '../../cli/main';\n")).join('\n'), /must not depend on the CLI/);
    assert.match((await problems('src/core/probe.ts', "import type { StoredTurn } from '../vscode/roundMetadata';\nexport type T = StoredTurn;\n")).join('\n'), /editor layer/);
    assert.match((await problems('src/cli/probe.ts', "export { historyToMessages } from '../vscode/chatHistory';\n")).join('\n'), /editor layer/);
    assert.deepEqual(await problems('src/cli/probe.ts', "export { McpHost } from '../core/host/mcpHost';\n"), [], 'the CLI uses the core');
  });

  it('forbids default exports in src', async () => {
    assert.match((await problems('src/core/probe.ts', 'export default 1;\n')).join('\n'), /named export/);
  });
});
