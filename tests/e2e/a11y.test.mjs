// Accessibility: axe-core finds no violations, at any impact, on the full page and in embed
// mode, in light and dark, for a one-head and a four-head model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { useBrowser, open, newContext, renderEveryStep } from './harness.mjs';

const env = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is, each as "rule: target…" for a readable failure. */
async function violations(page) {
  // Evaluated through the debugging protocol, so the page's CSP does not stand in the way.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  return found;
}

for (const preset of ['dog', 'raschka-multihead']) {
  for (const colorScheme of ['light', 'dark']) {
    for (const [mode, query] of [['full page', ''], ['embed mode', '&embed=1&controls=all']]) {
      test(`axe: ${preset}, ${colorScheme}, ${mode}`, async () => {
        const context = await newContext(env, { colorScheme, viewport: { width: 1280, height: 900 } });
        const { page, errors } = await open(context, `${env.base}?preset=${preset}${query}`);
        // Every step rendered, as a reader scrolling by sees it, and one cell explained.
        await renderEveryStep(page);
        await page.click('table[data-matrix="scores"] td[data-row="1"][data-col="0"]');
        assert.deepEqual(await violations(page), []);
        assert.deepEqual(errors, []);
      });
    }
  }
}

// With every kind of exercise on the page (issue 17), the maker open, and a hint shown.
const EXERCISES = 'ask=scores.0:6,1&predict=weights.0:6&goal=weights.0:6,4>=0.5&lock=embedding,w_value';
for (const colorScheme of ['light', 'dark']) {
  for (const [mode, query] of [['full page', ''], ['embed mode', '&embed=1&controls=all']]) {
    test(`axe: exercises, ${colorScheme}, ${mode}`, async () => {
      const context = await newContext(env, { colorScheme, viewport: { width: 1280, height: 900 } });
      const { page, errors } = await open(context, `${env.base}?preset=dog&${EXERCISES}${query}`);
      await renderEveryStep(page);
      await page.fill('[data-answer="scores.0:6,1"]', '1');
      await page.click('[data-exercise="scores.0:6,1"] [data-action="check"]');
      await page.waitForSelector('[data-exercise="weights.0:6,4>=0.5"] [data-goal-met]');
      if (mode === 'full page') {
        await page.click('[data-action="author"]');
        await page.waitForSelector('[data-action="author-ask"]');
      }
      assert.deepEqual(await violations(page), []);
      assert.deepEqual(errors, []);
    });
  }
}
