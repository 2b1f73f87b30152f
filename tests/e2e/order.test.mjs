// End-to-end: word order (issue 19). Each kind of positions chosen in the page gives trace() equal
// to attention-trace on the same state; the order lab's shuffle shows no change without
// positions and a visible one with them; the walk stops at the lab; the link and a reload keep
// the positions (their screenshots: screens.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, showLab, numberStat, coreTrace, assertSameTrace, linkSettled } from './harness.mjs';
import { evenDog, choose } from './screens.mjs';

const env = useBrowser();
const KINDS = ['sinusoidal', 'learned', 'rope_half', 'rope_interleaved'];

test('each kind of positions gives the trace attention-trace computes for the same state', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await evenDog(page);
  for (const kind of KINDS) {
    await choose(page, kind);
    const state = await page.evaluate(() => window.attentionExplorer.state());
    assert.equal(state.version, 2);
    const trace = await page.evaluate(() => window.attentionExplorer.trace());
    assertSameTrace(trace, coreTrace(JSON.stringify(state)));
    if (kind.startsWith('rope')) {
      assert.ok(trace.heads[0].queries_rotated, `${kind}: the rotated queries are in the trace`);
      assert.ok(await page.$('table[data-matrix="queries_rotated"][data-head="0"]'));
      assert.match(await page.textContent('table[data-matrix="queries_rotated"] thead'), /0·p0/);
    } else {
      assert.ok(trace.positioned, `${kind}: the positioned sentence is in the trace`);
      assert.ok(await page.$('#step-positions table[data-matrix="positioned"]'));
    }
  }
  // A bad base is named beside the field and the last good one is kept.
  await page.fill('[data-control="positions-base"]', '-3');
  await page.dispatchEvent('[data-control="positions-base"]', 'change');
  await page.waitForSelector('#step-embedding ~ * [role="alert"], .controls [role="alert"]');
  assert.match(await page.textContent('.controls [role="alert"]'), /^Positions: the base must be a number above 1/);
  assert.equal((await page.evaluate(() => window.attentionExplorer.state())).positions.base, 10000);
  // RoPE refuses an odd d_k with the reason.
  await page.fill('[data-control="d_k"]', '3');
  await page.waitForSelector('[data-control="d_k"][aria-invalid="true"]');
  assert.match(await page.textContent('#d_k-error'), /d_k must be even/);
  assert.deepEqual(errors, []);
});

test('the order lab: no change without positions, a visible one with them, the mask\'s own order', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await evenDog(page);
  await showLab(page, 'lab-order');
  const stat = (name) => numberStat(page, name);
  await page.click('[data-action="order-shuffle"]');
  assert.ok(await stat('order_max_diff') <= 1e-12, `no positions: ${await stat('order_max_diff')}`);
  assert.match(await page.textContent('#lab-order .lab-verdict'), /^No positions: every word's output row is the same numbers in its new place/);
  assert.equal(await stat('order_first_diff'), 0);
  assert.ok(await stat('rope_shift_diff') <= 1e-12);
  assert.ok(await stat('rope_convention_diff') > 1e-6, 'the two conventions differ on d_k = 4');
  for (const kind of ['sinusoidal', 'rope_half']) {
    await choose(page, kind);
    // Back to the lab (the control is at the top): it works while on screen.
    await page.$eval('#lab-order', (s) => s.scrollIntoView());
    await page.waitForFunction(() => Number(document.querySelector('[data-stat="order_max_diff"]').dataset.value) > 1e-6);
    assert.match(await page.textContent('#lab-order .lab-verdict'), / the numbers change: a word's output row moves by up to/);
  }
  await page.click('[data-action="order-reverse"]');
  assert.ok(await stat('order_max_diff') > 1e-6);
  // The page's model is not changed by the lab.
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().sentence), 'The dog fetched the ball and she was happy');
  assert.deepEqual(errors, []);
});

test('the walk stops at the order lab, and the link and a reload keep the positions', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await evenDog(page);
  await choose(page, 'rope_interleaved');
  await page.fill('[data-control="positions-base"]', '500');
  await page.dispatchEvent('[data-control="positions-base"]', 'change');
  await page.waitForFunction(() => window.attentionExplorer.state().positions.base === 500);
  const state = await page.evaluate(() => window.attentionExplorer.state());
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.ok(await page.$('#step-positions'));
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.state()), state);
  assert.equal(await page.inputValue('[data-control="positions"]'), 'rope_interleaved');
  // The positions step is numbered 3, and every later step one more.
  assert.match(await page.textContent('#step-positions h2'), /^3/);
  await page.click('[data-action="walk-start"]');
  let reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    // Past the lesson's end, the way further.
    await page.click(await page.isVisible('[data-action="walk-further"]') ? '[data-action="walk-further"]' : '[data-action="walk-next"]');
    reached = await page.$eval('#lab-order', (s) => s.getAttribute('aria-current') === 'step');
  }
  assert.ok(reached, 'the walk reaches the order lab');
  assert.deepEqual(errors, []);
});
