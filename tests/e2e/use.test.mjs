// End-to-end: the page as learners and teachers use it (issue 20), each written as the person
// did it; every test here failed on the page before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, cellSelector } from './harness.mjs';

const env = useBrowser();

/** Whether the section `id` has been scrolled to: its top where its scroll margin puts it. */
const scrolledTo = (page, id) => page.waitForFunction((id) => {
  const section = document.getElementById(id);
  return Math.abs(section.getBoundingClientRect().top - parseFloat(getComputedStyle(section).scrollMarginTop)) < 4;
}, id);

const written = (page, previous = '') =>
  page.waitForFunction((before) => location.hash.includes('m=') && location.hash !== before, previous);

test('a nav pill scrolls to its step and keeps the model in the address, with no history entry', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill(`${cellSelector('w_query', 0, 0)} input`, '2');
  await written(page);
  const address = page.url();
  const entries = await page.evaluate(() => history.length);
  await page.click('nav.pipeline a[href="#step-weights"]');
  await scrolledTo(page, 'step-weights');
  assert.equal(page.url(), address, 'the model stays in the address');
  assert.equal(await page.evaluate(() => history.length), entries, 'no history entry');
  await page.click('nav.pipeline a[href="#lab-mask"]');
  await scrolledTo(page, 'lab-mask');
  assert.equal(page.url(), address);
  await page.close();
});

test('the −∞ lab follows an edit while only its lower half is on screen', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // The lab's tables in view, its opening paragraph well above the screen.
  await page.$eval('table[data-lab-matrix="neg_inf"]', (t) => t.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(100);
  assert.ok(await page.$eval('#lab-mask p.explain', (p) => p.getBoundingClientRect().bottom < -300), 'the paragraph is out of sight');
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
  const lab = await page.$$eval('table[data-lab-matrix="neg_inf"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
  assert.deepEqual(lab, weights, 'Method 2 is the weights, as they are now');
  await page.close();
});

test('"Open in the full explorer" carries the real address, shows every step and opens at the embed\'s first', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=scores,weights&hide=sentence`, undefined, '[data-matrix="weights"]');
  const href = await page.getAttribute('[data-action="open-full"]', 'href');
  assert.match(href, /^http:\/\/127\.0\.0\.1:\d+\/course\/attention\/#m=/, `a real address before any click: ${href}`);
  assert.doesNotMatch(href, /hide=|embed=|steps=/, href);
  assert.match(href, /at=scores/);
  const full = await env.browser.newPage();
  await full.goto(href);
  await full.waitForSelector('[data-matrix="weights"]');
  assert.equal(await full.locator('text=Hidden. “Show” brings it back.').count(), 0, 'no hidden steps');
  assert.ok(await full.$('#step-sentence table, #step-sentence [data-control="sentence"]'), 'every step is there');
  await scrolledTo(full, 'step-scores');
  await full.close();
  await page.close();
});

test('every sentence that names a token follows a retyped word', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.click('[data-control="sentence"]');
  await page.keyboard.press('End');
  await page.keyboard.type(' you love', { delay: 5 });
  await page.waitForFunction(() => document.querySelector('figure.lines figcaption')?.textContent.includes('“love”'));
  const caption = await page.textContent('figure.lines figcaption');
  assert.match(caption, /^Where “love” looks/, caption);
  const label = await page.getAttribute('svg[data-view="lines"]', 'aria-label');
  assert.match(label, /^Where “love” looks/, label);
  await page.close();
});

test('under the causal mask the scaling table measures what the softmax sees', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.$eval('table[data-lab="scaling"]', (t) => t.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('table[data-lab="scaling"] tbody tr'));
  const foot = await page.textContent('table[data-lab="scaling"] tfoot');
  assert.match(foot, /0\.3143 is uniform/, foot);
  assert.doesNotMatch(foot, /0\.1111/, 'not 1/n');
  const unscaled = await page.$$eval('table[data-lab="scaling"] tbody tr', (trs) =>
    trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]).find(([th]) => th.startsWith('1')));
  assert.equal(unscaled[1], '3.1855', 'the spread of the 45 visible scores');
  assert.match(await page.textContent('#step-scale .explain'), /independent with mean 0 and variance 1/);
  await page.close();
});

test('the heat map\'s readout prints the page\'s decimals, and keeps every digit in data-value', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&faces=scores.0:heatmap&decimals=2`);
  const map = page.locator('canvas[data-matrix="scores"][data-head="0"][data-view="heatmap"]');
  await map.scrollIntoViewIfNeeded();
  await map.focus();
  await page.keyboard.press('ArrowDown');
  const readout = page.locator('#scores-0-readout [data-value]');
  const text = await readout.textContent();
  assert.match(text, /: -?\d+\.\d\d$/, text);
  const full = Number(await readout.getAttribute('data-value'));
  const trace = await page.evaluate(() => window.attentionExplorer.trace());
  assert.equal(full, trace.heads[0].scores[1][0]);
  assert.equal(text.split(': ')[1], full.toFixed(2));
  await page.close();
});

test('typing "1,5" into a cell keeps the number from before the typing, and names it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  const cell = cellSelector('w_query', 1, 0);
  const value = await page.getAttribute(cell, 'data-value');
  await page.focus(`${cell} input`);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('1,5');
  const id = await page.getAttribute(`${cell} input`, 'aria-describedby');
  assert.match(await page.textContent(`#${id}`), /still using 0\.2517\./);
  assert.equal(await page.getAttribute(cell, 'data-value'), value, 'the "1" typed on the way is not kept');
  await page.close();
});

test('retyping the sentence key by key gives the example back, "she" still followed', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&focus=6`);
  const before = await page.evaluate(() => window.attentionExplorer.state());
  await page.click('[data-control="sentence"]');
  await page.keyboard.press('Control+a');
  await page.keyboard.type(before.sentence, { delay: 2 });
  await page.waitForFunction((s) => window.attentionExplorer.state().sentence === s, before.sentence);
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.state()), before, 'the same model, every row');
  assert.equal(await page.getAttribute('.token:has-text("she")', 'aria-pressed'), 'true');
  const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
  assert.equal(weights[6][1].toFixed(4), '0.8830');
  assert.equal(await page.inputValue('[data-control="preset"]'), 'dog');
  await page.close();
});

test('before its code runs the page shows its title and a loading line, and says why when the code cannot load', async () => {
  // Not through `open`: the failed load is the point.
  const page = await env.browser.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.abort(); });
  await page.goto(`${env.base}?preset=dog`, { waitUntil: 'domcontentloaded' });
  assert.equal(await page.textContent('#boot h1'), 'Attention Explorer');
  assert.match(await page.textContent('#boot-status'), /Loading/);
  release();
  await page.waitForFunction(() => document.querySelector('#boot-status')?.getAttribute('role') === 'alert');
  assert.match(await page.textContent('#boot-status'), /Access-Control-Allow-Origin: \*/);
  await page.close();
  // Loaded, the app takes the loading line away.
  const { page: loaded } = await open(env.browser, `${env.base}?preset=dog`);
  assert.equal(await loaded.$('#boot'), null);
  await loaded.close();
});

test('on a phone every small button is at least 24 × 24 px to tap', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`, { width: 390, height: 844 });
  const small = await page.$$eval('.face-toggle, .toggle, nav.pipeline a', (els) =>
    els.filter((e) => e.offsetParent !== null)
      .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 24 || r.height < 24)
      .map(([t, r]) => `${t} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`));
  assert.deepEqual(small, []);
  await page.close();
});
