// End-to-end: heat maps, attention lines, the head strip and the scripting API in the built page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, coreTrace, assertSameTrace } from './harness.mjs';
import { openBig, bigState } from './screens.mjs';

const env = useBrowser();

const api = (page, call, ...args) => page.evaluate(([c, a]) => window.attentionExplorer[c](...a), [call, args]);

test('at 64 tokens × 8 heads every step has its matrices on the page', async () => {
  const { page, errors } = await openBig(env);
  for (const toggle of await page.locator('[data-action="toggle-step"]').all()) {
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  }
  const names = ['embedding', 'embedded', 'w_query', 'w_key', 'w_value', 'queries', 'keys', 'values', 'scores', 'scaled_scores',
    'masked_scores', 'masked_weights_simple', 'masked_weights_renormalized', 'weights', 'context', 'output'];
  for (const name of names) {
    const map = page.locator(`canvas[data-matrix="${name}"][data-view="heatmap"]`);
    assert.equal(await map.count(), 1, name);
    assert.match(await map.getAttribute('aria-label'), /heat map/);
  }
  assert.equal(await page.getAttribute('canvas[data-matrix="output"]', 'data-cols'), '128');
  assert.equal(await page.locator('canvas[data-view="thumbnail"]').count(), 8);
  // Picking a head in the strip shows it in detail.
  await page.click('[data-action="pick-head"][data-head="5"]');
  await page.waitForSelector('canvas[data-matrix="scores"][data-head="5"]');
  assert.equal(await page.getAttribute('[data-action="pick-head"][data-head="5"]', 'aria-pressed'), 'true');
  assert.deepEqual(errors, []);
});

test('hovering a heat-map cell shows the value that trace() holds', async () => {
  const { page, errors } = await openBig(env);
  const map = page.locator('canvas[data-matrix="weights"][data-head="0"][data-view="heatmap"]');
  // The mouse only reaches what is on screen (the labs made the page long enough to show it).
  await map.scrollIntoViewIfNeeded();
  const box = await map.boundingBox();
  const trace = await api(page, 'trace');
  for (const [fx, fy] of [[0.5, 0.9], [0.3, 0.95], [0.98, 0.98]]) {
    await map.hover({ position: { x: fx * box.width, y: fy * box.height } });
    const readout = page.locator('#weights-0-readout [data-value]');
    const [i, j, value] = await Promise.all(['data-row', 'data-col', 'data-value'].map((a) => readout.getAttribute(a)));
    assert.equal(Number(value), trace.heads[0].weights[Number(i)][Number(j)], `weights[${i}][${j}]`);
  }
  // The keyboard cursor reads cells too.
  await map.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.mouse.move(0, 0);
  assert.equal(await map.getAttribute('data-cursor'), '1,1');
  assert.equal(Number(await page.getAttribute('#weights-0-readout [data-value]', 'data-value')), trace.heads[0].weights[1][1]);
  assert.deepEqual(errors, []);
});

test('an edit in the heat-map edit box changes trace() to what attention-trace computes', async () => {
  const { page, errors } = await openBig(env);
  const map = page.locator('canvas[data-matrix="w_query"][data-head="0"]');
  await map.focus();
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const input = page.locator('.heatmap-editor input');
  await input.waitFor();
  await input.fill('oops');
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  await input.fill('0.5');
  await input.press('Enter');
  await page.waitForSelector('.heatmap-editor', { state: 'detached' });
  const state = await api(page, 'state');
  assert.equal(state.heads[0].w_query[3][1], 0.5);
  assertSameTrace(await api(page, 'trace'), coreTrace(JSON.stringify(state)));
  assert.deepEqual(errors, []);
});

test('trace() equals attention-trace for every preset and a 64-token state', async () => {
  for (const preset of ['dog', 'raschka', 'raschka-multihead']) {
    const { page, errors } = await open(env.browser, `${env.base}?preset=${preset}`);
    assertSameTrace(await api(page, 'trace'), coreTrace(null, preset));
    assert.deepEqual(errors, []);
    await page.close();
  }
  const { page, errors } = await openBig(env);
  assertSameTrace(await api(page, 'trace'), coreTrace(JSON.stringify(await bigState(env))));
  assert.deepEqual(errors, []);
});

test('attention lines follow the selected token and every edit', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  const lines = page.locator('svg[data-view="lines"][data-head="0"]');
  // Until a token is picked, the dog story follows "she"; causal, so she sees 7 of the 9.
  assert.equal(await lines.getAttribute('data-query'), '6');
  await page.click('.token:has-text("happy")');
  assert.equal(await lines.getAttribute('data-query'), '8');
  assert.equal(await lines.locator('line').count(), 9);
  await page.click('.token:has-text("she")');
  assert.equal(await lines.getAttribute('data-query'), '6');
  assert.equal(await lines.locator('line').count(), 7, 'masked keys have no line');
  const toDog = Number(await lines.locator('line[data-key="1"]').getAttribute('data-weight'));
  assert.equal(toDog.toFixed(3), '0.883');
  assert.ok(Number(await lines.locator('line[data-key="1"]').getAttribute('stroke-width')) > 5);
  // Clicking a query token in the picture follows it everywhere.
  await lines.locator('text.query-token', { hasText: 'ball' }).click();
  assert.equal(await lines.getAttribute('data-query'), '4');
  assert.equal(await page.getAttribute('.token:has-text("ball")', 'aria-pressed'), 'true');
  // An edit moves the lines.
  const before = await lines.locator('line[data-key="1"]').getAttribute('data-weight');
  assert.equal(await api(page, 'edit', 'w_key', 0, 0, 0, -3), null);
  assert.notEqual(await lines.locator('line[data-key="1"]').getAttribute('data-weight'), before);
  assert.deepEqual(errors, []);
});

test('the scripting API loads, edits and refuses with messages, undo included', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  const original = await api(page, 'state');
  assert.match(await api(page, 'load', '{"version": 3}'), /version/);
  assert.match(await api(page, 'load', 'not json'), /.+/);
  assert.deepEqual(await api(page, 'state'), original, 'a refused load changes nothing');
  assert.equal(await api(page, 'edit', 'scores', 0, 0, 0, 1), 'there is no editable matrix “scores”: use embedding, w_query, w_key, w_value, b_query, b_key, b_value, w_output, b_output, positions, source_embedding');
  assert.match(await api(page, 'edit', 'w_query', 0, 2, 0, 1), /^row 2 is out of range/);
  assert.match(await api(page, 'edit', 'w_query', 0, 0, 0, Infinity), /not a finite number/);
  assert.equal(await api(page, 'edit', 'w_query', 0, 0, 0, '2'), 'value must be a number');
  assert.match(await api(page, 'edit', 'w_query', 0, 0, 0, 1e7), /too large/);
  assert.equal(await api(page, 'edit', 'embedding', 99, 1, 0, 2.5), null);
  assert.equal(await api(page, 'edit', 'embedding', 0, 1, 0, 3.5), null);
  assert.equal((await api(page, 'state')).embedding[1][0], 3.5);
  await page.click('[data-action="undo"]');
  assert.equal((await api(page, 'state')).embedding[1][0], 2.5, 'each call is one undo step');
  // load() takes an object or JSON text.
  assert.equal(await api(page, 'load', JSON.stringify(original)), null);
  assert.deepEqual(await api(page, 'state'), original);
  assert.deepEqual(errors, []);
});
