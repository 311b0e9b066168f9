'use strict';
/* Playwright helpers for the workbench's quick input (input boxes and pick lists). */
const { waitFor } = require('../lib/wait');

const WIDGET = '.quick-input-widget';

/** Waits until a quick input whose title matches `title` is shown; returns its title, prompt and value. */
async function waitForQuickInput(page, title, timeout = 20000) {
  let seen = '';
  return waitFor(
    `a quick input titled ${title}`,
    async () => {
      const widget = page.locator(WIDGET);
      if (!(await widget.isVisible().catch(() => false))) return undefined;
      const t = await widget.locator('.quick-input-title').innerText().catch(() => '');
      seen = t;
      if (!title.test(t)) return undefined;
      const prompt = await widget.locator('.quick-input-message').innerText().catch(() => '');
      const value = await widget.locator('.quick-input-box input').inputValue().catch(() => '');
      return { title: t, prompt, value };
    },
    { timeout, describe: () => `last title seen: ${JSON.stringify(seen)}` },
  );
}

/** Replaces the input's text and presses Enter. */
async function typeAndAccept(page, text) {
  const input = page.locator(`${WIDGET} .quick-input-box input`);
  await input.fill(text);
  await page.waitForTimeout(100);
  await page.keyboard.press('Enter');
}

module.exports = { waitForQuickInput, typeAndAccept };
