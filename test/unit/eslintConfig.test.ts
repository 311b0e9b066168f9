/**
 * The layer rules of eslint.config.mjs, proven on code that breaks them: each snippet is linted as
 * if it were the named file, with the repository's own config.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it('limits a function to 120 code lines in src', async () => {
    const body = (n: number) => `export function long(): number {\n  let x = 0;\n${'  x++;\n'.repeat(n)}  return x;\n}\n`;
    assert.match((await problems('src/core/tools/probe.ts', body(120))).join('\n'), /max-lines-per-function/);
    assert.deepEqual(await problems('src/core/tools/probe.ts', body(100)), []);
  });
});

describe('eslint config: the core folders\' ranks', function () {
  this.timeout(60000);
  const RANK = /may import only the core folders ranked below it/;

  it('ranks every folder of src/core, each in one rank', async () => {
    const config = (await import(pathToFileURL(path.join(REPO, 'eslint.config.mjs')).href)) as { CORE_RANKS: string[][] };
    const ranked = config.CORE_RANKS.flat();
    assert.equal(new Set(ranked).size, ranked.length, 'a folder in two ranks');
    const folders = fs.readdirSync(path.join(REPO, 'src', 'core'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    assert.deepEqual([...folders].sort(), [...ranked].sort());
  });

  it('refuses an import of a higher folder, in every form the TypeScript rule sees', async () => {
    const cases: [string, string][] = [
      ['src/core/settings/probe.ts', "export { ActivePolicies } from '../policy/activePolicies';\n"],
      ['src/core/settings/probe.ts', "import type { AuthPort } from '../auth/authPort';\nexport type A = AuthPort;\n"],
      ['src/core/settings/probe.ts', "import { candidateName } from '../tools/toolNaming';\nexport const c = candidateName;\n"],
      ['src/core/tools/probe.ts', "import type { AuditLog } from '../audit/auditLog';\nexport type A = AuditLog;\n"],
      ['src/core/util/probe.ts', "export * from '../settings/hostSettings';\n"],
      ['src/core/mcp/probe.ts', "import fleet = require('../host/mcpHost');\nexport const f = fleet;\n"],
      // a folder below a core folder climbs twice
      ['src/core/mcp/call/probe.ts', "export { ToolRouter } from '../../calls/toolRouter';\n"],
    ];
    for (const [file, code] of cases) assert.match((await problems(file, code)).join('\n'), RANK, `${file}: ${code}`);
  });

  it('refuses an import between two folders of one rank (no cycle can form)', async () => {
    assert.match((await problems('src/core/policy/probe.ts', "export { readSources } from '../sources/readSources';\n")).join('\n'), RANK);
    assert.match((await problems('src/core/sources/probe.ts', "export { ActivePolicies } from '../policy/activePolicies';\n")).join('\n'), RANK);
  });

  it('lets a folder import the folders below it and its own files', async () => {
    const code = "export { DEFAULTS } from '../settings/hostSettings';\nexport { isWithin } from '../conditions/isWithin';\nexport { errorText } from '../util/errorText';\nexport * from './argumentRules';\n";
    assert.deepEqual(await problems('src/core/policy/probe.ts', code), []);
    assert.deepEqual(await problems('src/core/telemetry/probe.ts', "export { McpHost } from '../host/mcpHost';\n"), [], 'the top rank');
    assert.deepEqual(await problems('src/core/mcp/call/probe.ts', "export { DEFAULTS } from '../../settings/hostSettings';\nexport * from '../serverConnection';\n"), []);
  });

  it('mcp may not import calls or requests (the cycles the call unit removed)', async () => {
    assert.match((await problems('src/core/mcp/checkToolDefinitions.ts', "export { ToolRouter } from '../calls/toolRouter';\n")).join('\n'), RANK);
    assert.match((await problems('src/core/mcp/call/toolCall.ts', "export { ServerRequests } from '../../requests/serverRequests';\n")).join('\n'), RANK);
    assert.match((await problems('src/core/auth/probe.ts', "export { ConnectionState } from '../mcp/connectionState';\n")).join('\n'), RANK);
    // Still the core's layer rules there.
    assert.match((await problems('src/core/mcp/checkToolDefinitions.ts', "export { main } from '../../cli/main';\n")).join('\n'), /must not depend on the CLI/);
  });
});
