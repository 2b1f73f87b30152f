// End-to-end: the defects the house issue names, as a learner meets them. A changed seed survives
// a reload (the field, a resize and Re-initialise draw what they drew before it); the preset
// picker says the model is the learner's own after an edit and names the preset after undo;
// the attention lines' caption and the heads picture name the same key on tied weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, newPage, newContext, matrixValues, cellSelector, written, settled } from './harness.mjs';

const env = useBrowser();

test('a changed seed survives a reload: the field, a resize and Re-initialise draw the same', async () => {
  const context = await newContext(env);
  const { page } = await open(context, `${env.base}?preset=raschka`);
  await page.fill('[data-control="seed"]', '7');
  await page.fill('[data-control="d_k"]', '3');
  await written(page);
  assert.match(page.url(), /seed=7/);
  const grown = await matrixValues(page, 'w_query');
  await page.click('[data-action="reinit"]');
  const redrawn = await matrixValues(page, 'w_query');
  await page.click('[data-action="undo"]');
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelector('[data-control="d_k"]').value === '2');

  await page.reload();
  await page.waitForSelector('[data-matrix="weights"]');
  assert.equal(await page.inputValue('[data-control="seed"]'), '7', 'the seed field');
  await page.fill('[data-control="d_k"]', '3');
  assert.deepEqual(await matrixValues(page, 'w_query'), grown, 'a resize draws from seed 7');
  await page.click('[data-action="reinit"]');
  assert.deepEqual(await matrixValues(page, 'w_query'), redrawn, 'Re-initialise draws from seed 7');
});

test('the picker names the preset, then the learner\'s own model after an edit, and the preset again after undo', async () => {
  const context = await newContext(env);
  const { page } = await open(context, `${env.base}?preset=dog`);
  assert.equal(await page.inputValue('[data-control="preset"]'), 'dog');
  await page.fill(`${cellSelector('embedding', 0, 0, null)} input`, '3');
  await page.waitForFunction(() => document.querySelector('[data-control="preset"]').value === '');
  const shown = await page.$eval('[data-control="preset"]', (s) => s.selectedOptions[0]?.textContent);
  assert.match(shown, /Your own/);
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[data-control="preset"]').value === 'dog');
  await page.selectOption('[data-control="preset"]', 'raschka');
  assert.equal(await page.inputValue('[data-control="preset"]'), 'raschka');
});

test('the attention lines and the heads picture say the keys tie when weights do, naming no favourite', async () => {
  const context = await newContext(env);
  const { page } = await open(context, `${env.base}?preset=raschka-multihead`);
  // Zero every query weight: every score is 0 and every row of weights is uniform.
  await page.evaluate(() => {
    const state = window.attentionExplorer.state();
    for (const head of state.heads) head.w_query = head.w_query.map((row) => row.map(() => 0));
    window.attentionExplorer.load(state);
  });
  await page.waitForFunction(() => document.querySelector('.heads-picks')?.textContent.includes('head 0 → 6 keys alike (0.1667 each)'));
  const caption = await page.textContent('figure.lines figcaption');
  assert.equal(caption, 'Where “first” looks, head 0: 6 keys alike, 0.1667 each');
});

test('a page asked for dark is dark before its code has loaded', async () => {
  // Not through `open`: the blocked wasm is the point, and the page never becomes ready.
  const page = await newPage(env);
  await page.route('**/*.wasm', (route) => route.abort().catch(() => {}));
  for (const [url, theme] of [[`?embed=1&theme=dark`, 'dark'], [`?theme=light#theme=dark`, 'dark'], [`?theme=light`, 'light']]) {
    await page.goto(`${env.base}${url}`);
    assert.equal(await page.getAttribute('html', 'data-theme'), theme, url);
  }
  await page.goto(`${env.base}?embed=1&theme=dark`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(11, 17, 32)', 'the dark background, not white');
});

test('on a phone the walk\'s panel sits above the stop it explains, never over it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&walk=1`, { width: 390, height: 844 });
  for (let i = 0; i < 6; i++) {
    await page.click('[data-action="walk-next"]');
    // At the next stop, and done scrolling to it.
    await page.waitForFunction((n) => document.querySelector('.walk-where')?.textContent.startsWith(`${n} of`), i + 2);
    await settled(page);
    const panel = await page.locator('.walk').boundingBox();
    const stop = await page.locator('section[aria-current="step"]').boundingBox();
    assert.ok(panel.y + panel.height <= stop.y + 1, `stop ${i + 2}: panel ends at ${panel.y + panel.height}, the stop starts at ${stop.y}`);
  }
});

test('a refused control shows the model\'s state and says why beside it (an exercise\'s locks)', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&lock=b_query,w_output`);
  const before = await page.evaluate(() => window.attentionExplorer.state());
  for (const [control, said] of [['biases', /^Biases: b_query is locked in this exercise/], ['output-projection', /^Output projection: w_output is locked in this exercise/]]) {
    await page.click(`[data-control="${control}"]`);
    assert.match(await page.textContent(`[data-stat="${control}-refused"]`), said);
    assert.equal(await page.isChecked(`[data-control="${control}"]`), false, `${control}: the box shows the model, which has none`);
  }
  await page.click('[data-action="reinit"]');
  assert.match(await page.textContent('[data-stat="reinit-refused"]'), /^Not re-initialised: .* is locked in this exercise/);
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.state()), before, 'the model is unchanged');
  // The next change of the model takes the messages away.
  await page.click('[data-control="causal"]');
  await page.waitForSelector('[data-stat="biases-refused"]', { state: 'detached' });
  assert.equal(await page.$('[data-stat="reinit-refused"]'), null);
});
