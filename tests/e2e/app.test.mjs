// End-to-end: what a learner and a course author do, in the built release page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, newPage, matrixValues, cellSelector, coreTrace, assertClose, seededState, paste } from './harness.mjs';

const env = useBrowser();

const round4 = (rows) => rows.map((r) => r.map((x) => Number(x.toFixed(4))));

test('raschka preset shows the article\'s attention weights', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  const weights = round4(await matrixValues(page, 'weights'));
  assert.deepEqual(weights[1], [0.0386, 0.687, 0.0204, 0.084, 0.147, 0.0229]);
  assert.deepEqual(weights[5], [0.1973, 0.0247, 0.3102, 0.1132, 0.0751, 0.2794]);
  assert.equal(await page.textContent(cellSelector('weights', 1, 1)), '0.6870');
  assert.deepEqual(round4(await matrixValues(page, 'embedded'))[0], [0.3374, -0.1778, -0.3035]);
  assert.deepEqual(errors, []);
});

test('turning causal on shows the renormalised masked weights', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.check('[data-control="causal"]');
  await page.waitForSelector('table[data-matrix="masked_weights_renormalized"]');
  const norm = round4(await matrixValues(page, 'masked_weights_renormalized'));
  assert.deepEqual(norm[1], [0.0532, 0.9468, 0, 0, 0, 0]);
  assert.deepEqual(norm[4], [0.1536, 0.3145, 0.1325, 0.1849, 0.2145, 0]);
  assert.deepEqual(round4(await matrixValues(page, 'masked_weights_simple'))[1], [0.0386, 0.687, 0, 0, 0, 0]);
  assert.deepEqual(round4(await matrixValues(page, 'weights'))[3], [0.2232, 0.3242, 0.2078, 0.2449, 0, 0]);
  assert.equal(await page.textContent(cellSelector('masked_scores', 0, 5)), '−∞');
  assert.deepEqual(errors, []);
});

test('typing a weight updates every later step to exactly the core\'s numbers', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  const before = await matrixValues(page, 'context');
  await page.fill(`${cellSelector('w_query', 1, 0)} input`, '-0.75');
  assert.equal(await page.getAttribute(cellSelector('w_query', 1, 0), 'data-value'), '-0.75');
  await page.click('summary:has-text("Save, load or share")');
  const state = await page.inputValue('[data-control="state"]');
  assert.equal(JSON.parse(state).heads[0].w_query[1][0], -0.75);
  const core = coreTrace(state);
  for (const name of ['queries', 'scores', 'weights', 'context']) {
    assertClose(await matrixValues(page, name), core.heads[0][name], name);
  }
  assert.notDeepEqual(await matrixValues(page, 'context'), before);
  assert.deepEqual(errors, []);
});

test('garbage in a cell shows a message and breaks nothing', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  const weightsBefore = await matrixValues(page, 'weights');
  const input = `${cellSelector('w_key', 0, 1)} input`;
  const kept = await page.getAttribute(cellSelector('w_key', 0, 1), 'data-value');
  await page.fill(input, 'banana');
  assert.equal(await page.getAttribute(input, 'aria-invalid'), 'true');
  const messageId = await page.getAttribute(input, 'aria-describedby');
  assert.match(await page.textContent(`#${messageId}`), /“banana” is not a number/);
  assert.equal(await page.getAttribute(cellSelector('w_key', 0, 1), 'data-value'), kept);
  assert.deepEqual(await matrixValues(page, 'weights'), weightsBefore);
  // The rest of the page still works.
  await page.fill(`${cellSelector('w_key', 0, 0)} input`, '0.1');
  assert.notDeepEqual(await matrixValues(page, 'weights'), weightsBefore);
  await page.fill('[data-control="d_in"]', '500');
  assert.equal(await page.getAttribute('[data-control="d_in"]', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#d_in-error'), /d_in: “500” is out of range: use a whole number from 1 to 128; still using 3\./);
  assert.equal((await matrixValues(page, 'embedded'))[0].length, 3, 'the last good size stays');
  assert.deepEqual(errors, []);
});

test('changing d_k reshapes every table that depends on it', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.fill('[data-control="d_k"]', '5');
  await page.waitForFunction(() => document.querySelectorAll('table[data-matrix="queries"] tbody tr:first-child td').length === 5);
  const shape = async (name) => { const m = await matrixValues(page, name); return [m.length, m[0].length]; };
  assert.deepEqual(await shape('w_query'), [3, 5]);
  assert.deepEqual(await shape('w_key'), [3, 5]);
  assert.deepEqual(await shape('w_value'), [3, 4]);
  assert.deepEqual(await shape('queries'), [6, 5]);
  assert.deepEqual(await shape('keys'), [6, 5]);
  assert.deepEqual(await shape('scores'), [6, 6]);
  assert.deepEqual(await shape('context'), [6, 4]);
  assert.match(await page.textContent('table[data-matrix="queries"] >> xpath=ancestor::figure'), /6 × 5/);
  // What still fits is kept: W_query's first two columns are the seeded ones.
  assert.equal(round4(await matrixValues(page, 'w_query'))[0][0], 0.2961);
  await page.fill('[data-control="heads"]', '3');
  await page.waitForSelector('table[data-matrix="output"]');
  assert.deepEqual(await shape('output'), [6, 12]);
  assert.deepEqual(errors, []);
});

test('dog: click she and see 0.883 on dog, then the breakdowns', async () => {
  const { page, errors } = await open(env.browser, env.base);
  await page.click('.token:has-text("she")');
  assert.equal(await page.getAttribute('.token:has-text("she")', 'aria-pressed'), 'true');
  const row = 'table[data-matrix="weights"] tbody tr:nth-child(7)';
  assert.match(await page.getAttribute(row, 'class'), /selected/);
  assert.equal(await page.textContent(cellSelector('weights', 6, 1)), '0.8830');
  assert.equal(Number(await page.getAttribute(cellSelector('weights', 6, 1), 'data-value')).toFixed(3), '0.883');
  assert.equal(Number(await page.getAttribute(cellSelector('weights', 6, 4), 'data-value')).toFixed(3), '0.087');
  await page.click(cellSelector('scores', 6, 1));
  assert.match(await page.textContent('[data-breakdown="score"]'), /^she·dog = 2\.6400×2\.8770 \+ 1\.4600×3\.0570 \+ 0\.9400×1\.8870 = 13\.83/);
  await page.fill('[data-control="precision"]', '3');
  // The new precision repaints every cell's text, not just changed values.
  await page.waitForFunction((sel) => document.querySelector(sel).textContent === '0.883', cellSelector('weights', 6, 1));
  assert.equal(await page.textContent(cellSelector('weights', 6, 4)), '0.087');
  await page.click(cellSelector('context', 6, 0));
  assert.match(await page.textContent('[data-breakdown="context"]'), /^context\(she\) = 0\.883 × dog \+ 0\.087 × ball \+ /);
  assert.deepEqual(errors, []);
});

test('pasting a printed tensor fills cells from the focused one', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  const target = `${cellSelector('w_value', 0, 1)} input`;
  await page.focus(target);
  await paste(page, target, 'tensor([[1.5, 2.5],\n        [3.5, 4.5]])');
  const w = await matrixValues(page, 'w_value');
  assert.deepEqual([w[0][1], w[0][2], w[1][1], w[1][2]], [1.5, 2.5, 3.5, 4.5]);
  assert.deepEqual(errors, []);
});

test('the keyboard alone moves between cells and reaches the controls', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.focus(`${cellSelector('embedding', 0, 0, null)} input`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.closest('td').dataset.row), '2');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('td').dataset.col), '1');
  await page.keyboard.type('0.25');
  assert.equal(await page.getAttribute(cellSelector('embedding', 2, 1, null), 'data-value'), '0.25');
  // Read-only tables too: arrows move, Enter explains the score.
  await page.focus(cellSelector('scores', 0, 0));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  assert.match(await page.textContent('[data-breakdown="score"]'), /^is·is = /);
  const unlabeled = await page.$$eval('input, select, textarea', (els) => els.filter((el) => !el.labels?.length && !el.getAttribute('aria-label')).length);
  assert.equal(unlabeled, 0, 'every form control has a label');
  assert.deepEqual(errors, []);
});

test('an author can embed one step, and bad URLs explain themselves', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&view=weights`);
  assert.equal(await page.locator('section.step').count(), 1);
  assert.equal(await page.locator('#step-weights').count(), 1);
  await page.close();
  const bad = await newPage(env);
  await bad.goto(`${env.base}?state=${encodeURIComponent('{"version": 3}')}`);
  await bad.waitForSelector('table[data-matrix="weights"]');
  assert.match(await bad.textContent('.load-message'), /version: unsupported version 3/);
  await bad.goto(`${env.base}?preset=nope`);
  await bad.waitForSelector('.load-message');
  assert.match(await bad.textContent('.load-message'), /no preset “nope”/);
  assert.deepEqual(errors, []);
});

test('a share link reopens the exact model', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.fill(`${cellSelector('w_value', 2, 3)} input`, '0.123456789');
  await page.click('summary:has-text("Save, load or share")');
  const link = await page.inputValue('[data-control="link"]');
  const { page: again, errors } = await open(env.browser, link);
  assert.equal(await again.getAttribute(cellSelector('w_value', 2, 3), 'data-value'), '0.123456789');
  assert.deepEqual(await matrixValues(again, 'context'), await matrixValues(page, 'context'));
  assert.deepEqual(errors, []);
});

test('the example picker shows what the URL opened, and switches presets', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka-multihead`);
  assert.equal(await page.inputValue('[data-control="preset"]'), 'raschka-multihead');
  assert.equal(await page.locator('table[data-matrix="weights"]').count(), 4);
  await page.selectOption('[data-control="preset"]', 'dog');
  await page.waitForFunction(() => document.querySelectorAll('table[data-matrix="weights"]').length === 1);
  assert.equal(Number(await page.getAttribute(cellSelector('weights', 6, 1), 'data-value')).toFixed(3), '0.883');
  // The address follows: reopened, it shows dog, named in the picker.
  await page.waitForFunction(() => location.hash.startsWith('#m='));
  const { page: again } = await open(env.browser, page.url());
  assert.equal(await again.inputValue('[data-control="preset"]'), 'dog');
  assert.deepEqual(errors, []);
});

test('at the state limits every step is on the page, as heat maps, and stays editable', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  const state = await seededState(page, 64, { d_in: 128, d_k: 128, d_v: 128, heads: 16 });
  const { page: fresh, errors: freshErrors } = await open(env.browser, `${env.base}?preset=dog`);
  const message = await fresh.evaluate((s) => window.attentionExplorer.load(s), state);
  assert.equal(message, null);
  await fresh.waitForSelector('canvas[data-matrix="weights"][data-head="0"][data-rows="64"]');
  for (const toggle of await fresh.locator('[data-action="toggle-step"]').all()) {
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  }
  for (const name of ['embedding', 'w_query', 'w_key', 'w_value', 'queries', 'scores', 'weights', 'context', 'output']) {
    assert.equal(await fresh.locator(`canvas[data-matrix="${name}"][data-view="heatmap"]`).count(), 1, name);
  }
  assert.equal(await fresh.locator('canvas[data-view="thumbnail"]').count(), 16);
  assert.equal(await fresh.getAttribute('canvas[data-matrix="output"]', 'data-cols'), '2048');
  assert.ok((await fresh.locator('td').count()) < 100, 'no big tables');
  assert.equal(await fresh.evaluate(() => window.attentionExplorer.edit('w_query', 15, 127, 127, 0.25)), null);
  await fresh.click('[data-action="pick-head"][data-head="15"]');
  await fresh.waitForSelector('canvas[data-matrix="w_query"][data-head="15"]');
  const trace = await fresh.evaluate(() => window.attentionExplorer.trace());
  assert.equal(trace.heads.length, 16);
  assertClose(trace.heads[15].weights, coreTrace(JSON.stringify(await fresh.evaluate(() => window.attentionExplorer.state()))).heads[15].weights, 'weights');
  assert.deepEqual([...errors, ...freshErrors], []);
});
