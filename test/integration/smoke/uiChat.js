#!/usr/bin/env node
// @ts-check
'use strict';
/*
 * UI smoke (Playwright drives the workbench as a person would): code-server WITHOUT the smoke-test
 * driver (so modal dialogs would work), the smoke extension and the scripted model installed from
 * their folders, the Chat view opened, "@smoke hello" typed and sent, and the participant's answer
 * read back from the DOM.
 *
 *   node test/integration/smoke/uiChat.js [--screenshot out.png] [--headed] [--keep-tmp]
 *
 * Exit 0 when the answer shows up; last line "N passed, N failed".
 */
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');
const { cleanupAll } = require('../runner/cleanup');
const { openWorkbench } = require('../runner/workbench');

const { values: options } = parseArgs({
  options: {
    screenshot: { type: 'string' },
    headed: { type: 'boolean', default: false },
    'keep-tmp': { type: 'boolean', default: false },
  },
});

async function main() {
  const t0 = Date.now();
  const wb = await openWorkbench({
    folder: path.join(__dirname, 'workspace'),
    extensions: [path.join(__dirname, 'extension'), path.join(__dirname, '..', 'scripted-model')],
    headless: !options.headed,
    keepTmp: options['keep-tmp'],
  });
  const { page } = wb;
  fs.writeFileSync(wb.env.MCP_HOST_TEST_MODEL_SCRIPT, JSON.stringify({ select: 'sequential', turns: [{ text: 'Hello from the **scripted** model' }] }));

  // Open the Chat view through the command palette.
  await page.keyboard.press('F1');
  await page.keyboard.type('Chat: Open Chat');
  await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 10000 });
  await page.keyboard.press('Enter');
  const inputPart = page.locator('.interactive-input-part').first();
  await inputPart.waitFor({ timeout: 20000 });

  // Wait until the Chat view has picked the scripted model (else: "Language model unavailable").
  const deadline = Date.now() + 30000;
  while (!/Scripted Test/.test(await inputPart.innerText().catch(() => '')) && Date.now() < deadline) await page.waitForTimeout(250);

  await page.locator('.interactive-input-part .monaco-editor textarea').first().click({ force: true });
  await page.keyboard.type('@smoke hello');
  await page.keyboard.press('Enter');

  const answer = page.locator('.interactive-response', { hasText: 'Hello from the scripted model' });
  let ok = true;
  try {
    await answer.first().waitFor({ timeout: 30000 });
  } catch {
    ok = false;
  }
  const screenshot = options.screenshot;
  if (screenshot || !ok) {
    const file = screenshot || path.join(process.cwd(), 'uiChat-failure.png');
    await page.screenshot({ path: file });
    console.error(`[uiChat] screenshot: ${file}`);
  }
  await wb.close();
  console.error(`[uiChat] ${ok ? 'answer shown' : 'NO answer'} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`${ok ? 1 : 0} passed, ${ok ? 0 : 1} failed`);
  process.exitCode = ok ? 0 : 1;
}

main().catch(async (e) => {
  console.error(e);
  await cleanupAll();
  console.log('0 passed, 1 failed');
  process.exit(1);
});
