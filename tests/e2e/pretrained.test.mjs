// End-to-end: the trained model (issue 31), opened as a learner does: the file fetched with its
// progress, the page's sentence in WordPiece, every layer × head as a thumbnail, a head opened,
// its numbers equal to `attention-trace --pretrained` on the same shipped file; a cancelled or
// failed fetch said, the rest of the page working; offline once fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, open, projectRoot, eventually, picture, output, trace, state, linkSettled, showLab, unfold, runWithTorch, newPage, watch } from './harness.mjs';

const env = useBrowser();
const SHIPPED = join(projectRoot, 'dist', 'models', 'all-minilm-l6-v2.safetensors');
const SENTENCE = "The animal didn't cross the street because it was too tired.";

/** The command line's run of the shipped file. */
function cli(sentence, ...more) {
  const out = execFileSync('cargo', ['run', '--quiet', '--bin', 'attention-trace', '--', '--pretrained', SHIPPED, '--sentence', sentence, ...more], { cwd: projectRoot, maxBuffer: 1 << 28 });
  return JSON.parse(out.toString());
}

/** The largest difference between two lists of rows. */
const largest = (a, b) => Math.max(...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i][j]))));

/** The opened head's row of weights, from the model view. */
const openedRow = (page) => page.$$eval('[data-view="pretrained-head"] td[data-value]', (c) => c.map((x) => Number(x.dataset.value)));

async function openModel(page) {
  // Its button is in the settings, folded again after a reload.
  await unfold(page);
  await page.click('[data-action="load-pretrained"]');
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
}

const skip = !existsSync(SHIPPED) && 'no dist/models/ (run .ci/tools.sh, then build)';

test('a learner opens the trained model: its pieces, 6 × 12 thumbnails, and a head equal to the command line', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="sentence"]', SENTENCE);
  await page.press('[data-control="sentence"]', 'Enter');
  await openModel(page);
  const expected = cli(SENTENCE);
  const tokens = await page.$$eval('[data-stat="pretrained-tokens"] [data-token]', (b) => b.map((x) => [x.firstChild.textContent, Number(x.dataset.id)]));
  assert.deepEqual(tokens, expected.tokens.map((t, i) => [t, expected.ids[i]]));
  const thumbnails = await page.$$eval('[data-view="model"] [data-view="thumbnail"]', (c) => c.map((x) => `${x.dataset.layer}:${x.dataset.head}`));
  assert.equal(thumbnails.length, 72);
  assert.deepEqual(thumbnails.slice(0, 2), ['0:0', '0:1']);
  // Follow "it", open layer 3 head 1: "it" looks at "animal".
  const it = expected.tokens.indexOf('it');
  await page.click(`[data-stat="pretrained-tokens"] [data-token="${it}"]`);
  await page.click('.model-head[data-layer="3"][data-head="1"]');
  const row = await page.$$eval('[data-view="pretrained-head"] td[data-value]', (c) => c.map((x) => Number(x.dataset.value)));
  const want = expected.layers[3].heads[1].weights[it];
  assert.equal(row.length, want.length);
  row.forEach((w, k) => assert.ok(Math.abs(w - want[k]) <= 1e-9, `key ${k}: ${w} vs ${want[k]}`));
  assert.ok(want[expected.tokens.indexOf('animal')] > 0.6);
  const words = await page.textContent('[data-stat="pretrained-words"]');
  assert.match(words, /^From “it”, at least half the attention: layer 0 head 2 to “because” \(1\.00\);.* layer 3 head 1 to “animal” \(0\.68\);.* layer 5 head 11 to “animal” \(0\.67\)\. \d+ more send it to \[CLS\] or \[SEP\]/);
  // Past 64 pieces the sentence box says so and keeps the last sentence.
  await page.fill('[data-control="sentence"]', Array.from({ length: 63 }, (_, i) => `w${i}`).join(' '));
  await eventually(() => page.locator('#sentence-error').count(), (n) => n === 1);
  assert.match(await page.textContent('#sentence-error'), /^Sentence: it makes more than 64 tokens with \[CLS\] and \[SEP\]; shorten it\. Still using the last one\.$/);
  // Retyped, the sentence reaches the model.
  await page.fill('[data-control="sentence"]', 'Unbelievably, it rained.');
  await eventually(() => page.$$eval('[data-stat="pretrained-tokens"] [data-token]', (b) => b.map((x) => x.firstChild.textContent)), (t) => t.join(' ') === cli('Unbelievably, it rained.').tokens.join(' '));
  await page.fill('[data-control="sentence"]', SENTENCE);
  await eventually(() => page.locator('[data-stat="pretrained-tokens"] [data-token]').count(), (n) => n === expected.tokens.length);
  await page.click(`[data-stat="pretrained-tokens"] [data-token="${it}"]`);
  await page.click('.model-head[data-layer="3"][data-head="1"]');
  for (const [name, viewport, theme] of [['desktop-light', { width: 1280, height: 900 }, 'light'], ['desktop-dark', { width: 1280, height: 900 }, 'dark'], ['phone-light', { width: 390, height: 844 }, 'light'], ['phone-dark', { width: 390, height: 844 }, 'dark']]) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: theme });
    await picture(page.locator('#pretrained'), output(`pretrained-${name}.png`));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${name}: the page scrolls sideways`);
  }
});

test('a head knocked out: its weights are zeros and every later layer equals attention-trace --ablate', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="sentence"]', SENTENCE);
  await openModel(page);
  const plain = cli(SENTENCE);
  const ablated = cli(SENTENCE, '--ablate', '0:2');
  const it = plain.tokens.indexOf('it');
  await page.click(`[data-stat="pretrained-tokens"] [data-token="${it}"]`);
  await page.click('.model-head[data-layer="0"][data-head="2"]');
  // By keyboard: the page recomputes every layer and the focus stays on the checkbox.
  await page.focus('[data-control="knockout"]');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.control), 'knockout');
  await eventually(() => page.$$eval('[data-view="pretrained-head"] td[data-value]', (c) => c.map((x) => Number(x.dataset.value))), (row) => row.every((w) => w === 0));
  assert.ok(await page.$('.model-head.knocked[data-layer="0"][data-head="2"]'));
  await page.click('.model-head[data-layer="5"][data-head="11"]');
  const row = await page.$$eval('[data-view="pretrained-head"] td[data-value]', (c) => c.map((x) => Number(x.dataset.value)));
  const want = ablated.layers[5].heads[11].weights[it];
  row.forEach((w, k) => assert.ok(Math.abs(w - want[k]) <= 1e-9, `key ${k}: ${w} vs ${want[k]}`));
  assert.ok(want.some((w, k) => Math.abs(w - plain.layers[5].heads[11].weights[it][k]) > 1e-4), 'the knock-out changes layer 5');
  // Back in: the plain numbers again.
  await page.click('.model-head[data-layer="0"][data-head="2"]');
  await page.uncheck('[data-control="knockout"]');
  await page.click('.model-head[data-layer="5"][data-head="11"]');
  await eventually(() => page.$eval('[data-view="pretrained-head"] td[data-col="2"]', (c) => Number(c.dataset.value)), (w) => Math.abs(w - plain.layers[5].heads[11].weights[it][2]) <= 1e-9);
});

test('a fetch that fails or is cancelled says so, and the page keeps working', { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await page.route(/models\/all-minilm-l6-v2\.safetensors$/, (route) => route.fulfill({ status: 404, body: '' }));
  await page.click('[data-action="load-pretrained"]');
  await page.waitForSelector('[data-stat="pretrained-error"]');
  assert.match(await page.textContent('[data-stat="pretrained-error"]'), /could not be fetched: the server answered 404.*The rest of the page works/);
  // A slow server: Cancel stops it.
  await page.unroute(/models\//);
  await page.route(/models\/all-minilm-l6-v2\.safetensors$/, () => {});
  await page.click('[data-action="retry-pretrained"]');
  await page.click('[data-action="cancel-pretrained"]');
  await eventually(() => page.textContent('[data-stat="pretrained-error"]'), (t) => /^Cancelled: nothing was kept\. The rest of the page works\./.test(t ?? ''));
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  // The browser logged the 404; that is expected here.
  assert.ok(errors.some((e) => /404/.test(e)), JSON.stringify(errors));
  errors.length = 0;
});

test('once opened, the trained model opens offline', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Controlled by the worker, so that it keeps what the page fetches.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await openModel(page);
  // The link names the model: reloaded offline, the page opens it again by itself.
  await linkSettled(page);
  await page.context().setOffline(true);
  env.server.refusing = true;
  await page.reload();
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  assert.equal(await page.locator('[data-view="model"] [data-view="thumbnail"]').count(), 72);
});

test('a layer in the page: its heads equal the command line, an edit of layer 0 changes layer 5, and reload brings it back', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="sentence"]', SENTENCE);
  await openModel(page);
  const plain = cli(SENTENCE);
  // Opened, layer 0 is the page's model: its pieces are the tokens, its 12 heads the pipeline's.
  assert.equal(await page.inputValue('[data-control="layer"]'), '0');
  const tokens = await page.$$eval('.tokens [data-token] .token-word', (w) => w.map((x) => x.textContent));
  assert.deepEqual(tokens, plain.tokens);
  for (const layer of [0, 3]) {
    await page.selectOption('[data-control="layer"]', String(layer));
    const heads = await eventually(() => trace(page), (t) => t.heads.length === 12 && largest(t.heads[1].weights, plain.layers[layer].heads[1].weights) <= 1e-9);
    heads.heads.forEach((h, i) => assert.ok(largest(h.weights, plain.layers[layer].heads[i].weights) <= 1e-9, `layer ${layer} head ${i}`));
  }
  // X is what the layers below make: it cannot be typed over, and says why.
  assert.match(await page.evaluate(() => window.attentionExplorer.edit('embedding', 0, 1, 0, 2)), /X is what the layers below make of the sentence/);
  // An edit of layer 0's W_query: every layer above is computed again, layer 5 included.
  await page.selectOption('[data-control="layer"]', '0');
  const it = plain.tokens.indexOf('it');
  await page.click(`[data-stat="pretrained-tokens"] [data-token="${it}"]`);
  await page.click('.model-head[data-layer="5"][data-head="11"]');
  const before = await openedRow(page);
  assert.ok(largest([before], [plain.layers[5].heads[11].weights[it]]) <= 1e-9);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 2, 7, 3, 40)), null);
  const after = await eventually(() => openedRow(page), (row) => largest([row], [before]) > 1e-4);
  const saved = await state(page);
  assert.deepEqual(saved.pretrained.changes, [[0, 'w_query', 2, 7, 3, 40]]);
  assert.equal(saved.pretrained.layer, 0);
  // Undo: the trained numbers again.
  await page.click('[data-action="undo"]');
  await eventually(() => openedRow(page), (row) => largest([row], [before]) <= 1e-12);
  await page.click('[data-action="redo"]');
  await eventually(() => openedRow(page), (row) => largest([row], [after]) <= 1e-12);
  // Layer 3 in the page, then a reload: the layer, the edit and the numbers come back.
  await page.selectOption('[data-control="layer"]', '3');
  const shown = await eventually(() => trace(page), (t) => t.heads.length === 12 && largest(t.heads[1].weights, plain.layers[3].heads[1].weights) > 1e-6);
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  // The followed piece ("it", past the default example's tokens) came back with it, unrefused.
  assert.equal(await page.locator('.load-message').count(), 0);
  await eventually(() => page.getAttribute(`.tokens [data-token="${it}"]`, 'aria-pressed'), (p) => p === 'true');
  const back = await eventually(() => trace(page), (t) => t.heads.length === 12);
  assert.ok(largest(back.heads[1].weights, shown.heads[1].weights) <= 1e-12);
  assert.deepEqual((await state(page)).pretrained.changes, [[0, 'w_query', 2, 7, 3, 40]]);
  // The state, loaded into another page, opens the model there with the same layer and edit.
  const other = (await open(env.browser, `${env.base}?preset=raschka`)).page;
  assert.equal(await other.evaluate((s) => window.attentionExplorer.load(s), saved), null);
  await other.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => state(other), (s) => s.pretrained?.layer === 0 && s.pretrained.changes.length === 1);
  // A teacher's link names the model and a layer: it opens on the link's sentence.
  const taught = (await open(env.browser, `${env.base}?preset=raschka&pretrained=all-minilm-l6-v2&layer=2`)).page;
  await taught.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => taught.inputValue('[data-control="layer"]'), (l) => l === '2');
  assert.deepEqual((await state(taught)).pretrained, { model: 'all-minilm-l6-v2', sentence: 'Life is short, eat dessert first', layer: 2, knocked: [], changes: [] });
  for (const [name, viewport, theme] of [['desktop-light', { width: 1280, height: 900 }, 'light'], ['phone-dark', { width: 390, height: 844 }, 'dark']]) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: theme });
    await picture(page.locator('[data-view="layer-steps"]'), output(`pretrained-layer-steps-${name}.png`));
    await picture(page.locator('#step-embedding'), output(`pretrained-x-${name}.png`));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${name}: the page scrolls sideways`);
  }
});

test('"Copy as PyTorch" of a trained layer: a short script and its numbers file, equal to the page in torch', { skip }, async (t) => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="sentence"]', SENTENCE);
  await openModel(page);
  await page.selectOption('[data-control="layer"]', '3');
  const plain = cli(SENTENCE);
  const shown = await eventually(() => trace(page), (x) => x.heads.length === 12 && largest(x.heads[1].weights, plain.layers[3].heads[1].weights) <= 1e-9);
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  // Each place its own row of X (both "the" differ), the 600 000 numbers in a file beside it.
  assert.ok(script.length < 10_000, `${script.length} characters`);
  assert.match(script, /^ids = torch\.arange\(len\(words\)\)$/m);
  assert.match(script, /load_file\("attention-numbers\.safetensors"\)/);
  assert.match(await page.textContent('[data-action="download-numbers"]'), /^Save attention-numbers\.safetensors \(4\.\d MB\)$/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="download-numbers"]')]);
  assert.equal(download.suggestedFilename(), 'attention-numbers.safetensors');
  const numbers = await readFile(await download.path());
  assert.deepEqual(errors, []);
  const got = await runWithTorch(t, script, '[output.tolist(), head_weights[1].tolist()]', { 'attention-numbers.safetensors': numbers });
  if (!got) return;
  const [out, weights] = got;
  assert.ok(largest(out, shown.output) <= 1e-9);
  assert.ok(largest(weights, shown.heads[1].weights) <= 1e-9);
  const it = plain.tokens.indexOf('it');
  assert.ok(weights[it][plain.tokens.indexOf('animal')] > 0.6, '"it" looks at "animal" in torch too');
});

test('a teacher asks about a trained head before it is open; the order lab shows the learned positions are all it knows of order', { skip }, async () => {
  const asked = 'weights.3:5,2';
  const { page } = await open(env.browser, `${env.base}?pretrained=all-minilm-l6-v2&layer=2&ask=${asked}`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '2');
  // Read against the layer, not refused against the example shown while it was fetched.
  assert.equal(await page.locator('.load-message').count(), 0);
  const opened = await eventually(() => trace(page), (t) => t.heads.length === 12);
  const value = opened.heads[3].weights[5][2];
  // 12 heads are shown one at a time: the card shows the one it asks about.
  await page.click(`[data-exercise="${asked}"] [data-action="show-head"]`);
  await page.fill(`[data-answer="${asked}"]`, value.toFixed(4));
  await page.press(`[data-answer="${asked}"]`, 'Enter');
  await page.waitForSelector(`[data-exercise="${asked}"][data-result="correct"]`);

  await showLab(page, 'lab-order');
  const stat = (name) => page.$eval(`[data-stat="${name}"]`, (s) => Number(s.dataset.value));
  await eventually(() => stat('order_max_diff'), (d) => d > 0.1);
  assert.ok(await stat('order_no_positions_diff') < 1e-9, `${await stat('order_no_positions_diff')}`);
  assert.match(await page.textContent('#lab-order .lab-verdict'), /The learned positions are how this model knows it\.$/);
  // Reversed: [CLS] and [SEP] stay where they are, the pieces between change places.
  await page.click('#lab-order [data-action="order-reverse"]');
  const places = await eventually(
    () => page.$$eval('#lab-order .order-table tbody tr', (rows) => rows.map((r) => [r.querySelector('th').textContent, r.querySelector('td').textContent])),
    (rows) => rows.length === opened.tokens.length && rows[1][1] === `1 → ${rows.length - 2}`,
  );
  assert.deepEqual(places[0], ['[CLS]', '0 → 0']);
  assert.deepEqual(places.at(-1), ['[SEP]', `${places.length - 1} → ${places.length - 1}`]);
  await picture(page.locator('#lab-order'), output('pretrained-order-lab.png'));
});

test('the labs a trained encoder cannot run say why and what would, and show no empty tables', { skip }, async () => {
  // Found as a learner: the KV cache lab offered Decode with six "0 × 0" tables and advised
  // turning the causal mask on, which the encoder refuses; the order lab showed two "0 × 0"s.
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  await page.$eval('#lab-kv-cache', (s) => s.scrollIntoView());
  const note = page.locator('[data-note="kv-cache-refused"]');
  await note.waitFor();
  assert.match(await note.textContent(), /^This lab needs a causal model: an encoder such as this trained model reads the whole sentence at once and has no causal mask: open the language model \(Open a language model\), whose layers decode, or a preset with the causal mask on\.$/);
  const shown = (scope) => page.$$eval(`${scope} table, ${scope} button, ${scope} .matrix-shape, ${scope} .shape`, (all) => all.filter((e) => e.checkVisibility()).map((e) => e.textContent.trim().slice(0, 20)));
  assert.deepEqual(await shown('#lab-kv-cache'), [], 'nothing of a decoding shown');
  await showLab(page, 'lab-order');
  const empty = await page.$$eval('#lab-order .shape', (all) => all.filter((e) => e.checkVisibility() && /^0 × 0$/.test(e.textContent)).length);
  assert.equal(empty, 0, 'no empty table in the order lab');
});

test("a trained layer's refusals are said beside their field: a size, the seed, Re-initialise", { skip }, async () => {
  // Found as a learner: the size's reason 1 700 px below its field, the seed and Re-initialise
  // doing nothing without a word.
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  const top = (selector) => page.$eval(selector, (e) => e.getBoundingClientRect().top + scrollY);
  const near = async (field, message, text) => {
    const [f, m] = [await top(field), await top(message)];
    assert.ok(Math.abs(m - f) < 120, `${message} at ${m}, its field at ${f}`);
    assert.match(await page.textContent(message), text);
  };
  await page.fill('[data-control="d_k"]', '3');
  await near('[data-control="d_k"]', '#d_k-error', /^d_k: a trained model's layer keeps the sizes it was trained with; still using 32\.$/);
  await page.fill('[data-control="seed"]', '7');
  await near('[data-control="seed"]', '#seed-error', /^Seed: a trained model's numbers come from its training, not from a seed, so there is nothing to draw again; still using \d+\.$/);
  await page.click('[data-action="reinit"]');
  await near('[data-action="reinit"]', '[data-stat="reinit-refused"]', /^Not re-initialised: a trained model's numbers are not drawn from a seed/);
});

test('on a phone the heads\' maps keep their size and scroll sideways, each column numbered', { skip }, async () => {
  // Found as a learner: no head numbers, and maps squeezed to 20 px targets on a phone.
  const { page } = await open(env.browser, `${env.base}?preset=dog`, { width: 390, height: 844 });
  await openModel(page);
  const numbers = await page.$$eval('.model-head-numbers .model-head-number', (all) => all.map((n) => [n.textContent, n.getBoundingClientRect()]).map(([t, r]) => [t, r.left + r.width / 2]));
  assert.deepEqual(numbers.map((n) => n[0]), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  const heads = await page.$$eval('.model-layer:not(.model-head-numbers)', (rows) => [...rows[0].querySelectorAll('.model-head')].map((b) => { const r = b.getBoundingClientRect(); return [r.width, r.left + r.width / 2]; }));
  assert.equal(heads.length, 12);
  heads.forEach(([width, middle], h) => {
    assert.ok(width >= 100, `head ${h}: ${width} px wide`);
    assert.ok(Math.abs(middle - numbers[h][1]) <= 2, `head ${h}'s number over its map`);
  });
  assert.ok(await page.$eval('.model-view', (v) => v.scrollWidth > v.clientWidth), 'the grid scrolls sideways');
});

test('an embed of a trained layer, without the settings, fetches the model and shows the layer in its steps', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?embed=1&steps=weights&pretrained=all-minilm-l6-v2&layer=2&head=3`, { width: 390, height: 844 });
  const shown = await eventually(() => trace(page), (t) => t.heads.length === 12, { timeout: 60_000 });
  assert.equal((await state(page)).pretrained.layer, 2);
  // The steps the author chose, the head the link names; not the model view.
  assert.equal(await page.locator('[data-view="model"]').count(), 0);
  assert.deepEqual(await page.$$eval('section[id^="step-"]', (s) => s.map((e) => e.id)), ['step-weights']);
  // Head 3 in full (a map or a table, by size), the others as thumbnails to pick.
  await page.waitForSelector('[data-matrix="weights"][data-head="3"]:not([data-view="thumbnail"])');
  assert.ok(largest(shown.heads[3].weights, (await trace(page)).heads[3].weights) === 0);
  await picture(page.locator('main'), output('pretrained-embed-phone.png'));
});

test("an embed of a trained layer in a course page: its first state is the layer, Undo starts there, Reset brings the link's layer back", { skip }, async () => {
  const src = `${env.base}?embed=1&steps=weights&pretrained=all-minilm-l6-v2&layer=2&head=3`;
  const course = await newPage(env);
  const errors = watch(course, src);
  await course.setContent('<p>A course page</p>');
  // The first state the course page hears is the trained layer's, not the example's shown while it loads.
  const first = await course.evaluate((url) => new Promise((resolve) => {
    addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:state') resolve(e.data.state); });
    const frame = Object.assign(document.createElement('iframe'), { src: url, width: 800, height: 700 });
    document.body.append(frame);
  }), src);
  assert.equal(first.pretrained?.layer, 2);
  const frame = course.frames()[1];
  await frame.waitForSelector('[data-matrix="weights"][data-head="3"]:not([data-view="thumbnail"])');
  // Opening the link's model is where the embed starts: nothing to undo.
  assert.equal(await frame.isDisabled('[data-action="undo"]'), true);
  const opened = await frame.evaluate(() => window.attentionExplorer.state());
  assert.equal(await frame.evaluate(() => window.attentionExplorer.edit('w_query', 3, 0, 0, 5)), null);
  await eventually(() => frame.evaluate(() => window.attentionExplorer.state()), (s) => s.pretrained?.changes.length === 1);
  // Reset: the link's layer again (undoably), not the dog.
  await frame.click('[data-action="reset"]');
  const reset = await eventually(() => frame.evaluate(() => window.attentionExplorer.state()), (s) => s.pretrained?.changes.length === 0);
  assert.deepEqual(reset, opened);
  await frame.click('[data-action="undo"]');
  await eventually(() => frame.evaluate(() => window.attentionExplorer.state()), (s) => s.pretrained?.changes.length === 1);
  assert.deepEqual(errors, []);
});

test("a predicted row of a trained layer's head stays hidden in the model view too: its map, the words, the opened head", { skip }, async () => {
  const asked = 'weights.1:2';
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&pretrained=all-minilm-l6-v2&layer=3&predict=${asked}`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  const hiddenMap = '.model-head[data-layer="3"][data-head="1"] [data-stat="hidden-head"]';
  await page.waitForSelector(hiddenMap);
  // Only the asked head of the page's layer: the same head a layer below, and the next head, are drawn.
  assert.equal(await page.locator('.model-head[data-layer="2"][data-head="1"] canvas').count(), 1);
  assert.equal(await page.locator('.model-head[data-layer="3"][data-head="2"] canvas').count(), 1);
  await page.click('[data-stat="pretrained-tokens"] [data-token="2"]');
  assert.doesNotMatch(await page.textContent('[data-stat="pretrained-words"]'), /layer 3 head 1 /);
  await page.click('.model-head[data-layer="3"][data-head="1"]');
  assert.ok(await page.isVisible('[data-view="pretrained-head"] [data-stat="hidden-head"]'));
  assert.ok(await page.isHidden('[data-view="pretrained-head"] table'));
  // Answered: all of it is there.
  const id = `[data-exercise="${asked}"]`;
  await page.selectOption(`${id} [data-control="predict"]`, { index: 1 });
  await page.click(`${id} [data-action="predict"]`);
  await page.waitForSelector(`${id}[data-result]`);
  await page.waitForSelector(hiddenMap, { state: 'detached' });
  assert.ok(await page.isVisible('[data-view="pretrained-head"] table'));
  assert.deepEqual(errors, []);
});

test("the Embed dialog of a trained layer: no mask step to offer, the preview's height measured", { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&pretrained=all-minilm-l6-v2&layer=3`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  await page.click('[data-action="embed"]');
  await page.waitForSelector('[data-control="embed-step"]');
  const steps = await page.$$eval('[data-control="embed-step"]', (els) => els.map((e) => e.value));
  assert.ok(!steps.includes('mask'), steps.join());
  for (const step of steps) if (step !== 'weights') await page.uncheck(`[data-control="embed-step"][value="${step}"]`);
  await page.$eval('[data-view="embed-preview"]', (f) => f.scrollIntoView());
  const frame = page.frameLocator('[data-view="embed-preview"]');
  await frame.locator('[data-matrix="weights"][data-head="0"]').first().waitFor({ timeout: 60_000 });
  // The preview's height as it settles (its trained model's parts still arriving), and the
  // snippet's: equal in the end.
  const heights = async () => [await frame.locator('body').evaluate((b) => b.offsetHeight), await page.inputValue('[data-export="embed"]')];
  await eventually(heights, ([body, snippet]) => snippet.includes(`height="${body}"`), { timeout: 30_000 });
  assert.match(await page.inputValue('[data-export="embed"]'), /\?embed=1&amp;steps=weights#m=/);
  assert.deepEqual(errors, []);
});

test('the trained model put back in the page comes back as the learner left it; opened on the dog it follows "she"', { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  // The dog followed "she": the model's pieces ([CLS] first) follow "she" too, not the piece at her place.
  assert.equal(await page.textContent('[data-stat="pretrained-tokens"] [aria-pressed="true"]').then((t) => t.replace(/\d+$/, '')), 'she');
  await page.selectOption('[data-control="layer"]', '3');
  await eventually(() => state(page), (s) => s.pretrained?.layer === 3);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 2, 7, 3, 40)), null);
  await eventually(() => state(page), (s) => s.pretrained?.changes.length === 1);
  const left = await state(page);
  await page.selectOption('[data-control="preset"]', 'raschka');
  await eventually(() => state(page), (s) => !s.pretrained);
  await page.click('[data-action="pretrained-in-page"]');
  assert.deepEqual(await eventually(() => state(page), (s) => s.pretrained?.changes.length === 1), left);
  assert.deepEqual(errors, []);
});

test("a trained layer's link: its training target waits for the layer; trained five steps, the link says it is too long to send", { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&pretrained=all-minilm-l6-v2&layer=3#target=1:9,2`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  // Not refused against the dog shown while the model came ("head is 1, beyond 0 … 0").
  assert.equal(await page.locator('.load-message').count(), 0);
  await linkSettled(page);
  assert.match(await page.evaluate(() => location.hash), /target=1:9,2/);
  await showLab(page, 'lab-train');
  for (let i = 0; i < 5; i++) {
    await page.click('#lab-train [data-action="train-step"]');
    await page.waitForSelector('#lab-train [data-action="train-step"]:not([disabled])', { timeout: 60_000 });
  }
  await eventually(() => state(page), (s) => s.pretrained?.changes.length > 10_000, { timeout: 60_000 });
  await linkSettled(page);
  await page.click('summary:has-text("Save, load or share")');
  assert.match(await page.textContent('[data-stat="long-link"]', { timeout: 20_000 }), /^This link is \d+ characters long: .*download the state/);
  assert.deepEqual(errors, []);
});

test("the exercise maker on a trained layer refuses a SCORM package with the reason, and still gives the link", { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&pretrained=all-minilm-l6-v2&layer=3&predict=weights.1:2`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  await page.click('[data-action="author"]');
  await page.waitForSelector('[data-action="scorm"]');
  assert.ok(await page.isDisabled('[data-action="scorm"]'));
  assert.match(await page.textContent('[data-stat="scorm-refused"]'), /^No SCORM package of a trained model's layer: .*the link or embed it/);
  assert.ok(await page.isVisible('[data-stat="scorm-refused"]'));
  assert.match(await page.inputValue('[data-export="exercise-link"]'), /predict=weights\.1:2/);
  assert.deepEqual(errors, []);
});

test("offline after a first visit that opened the model, the learner's layer reopens; a cut model fetch never writes the example over the link", { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // A first visit: the model opened before the service worker keeps the page.
  await openModel(page);
  await page.selectOption('[data-control="layer"]', '3');
  await eventually(() => state(page), (s) => s.pretrained?.layer === 3);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 2, 7, 3, 40)), null);
  await eventually(() => state(page), (s) => s.pretrained?.changes.length === 1);
  await linkSettled(page);
  const left = await state(page);
  const link = page.url();
  // The worker keeps what the page fetched before it: the model's file and its code.
  const kept = () => page.evaluate(async () => {
    const urls = [];
    for (const key of await caches.keys()) for (const r of await (await caches.open(key)).keys()) urls.push(r.url);
    return urls.some((u) => /models\/all-minilm-l6-v2/.test(u)) && urls.some((u) => /\/split_pretrained_panel\.wasm$/.test(u));
  });
  await eventually(kept, (k) => k, { timeout: 60_000, every: 500 });
  await page.context().setOffline(true);
  env.server.refusing = true;
  await page.reload();
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  assert.deepEqual(await eventually(() => state(page), (s) => s.pretrained?.changes.length === 1), left);
  env.server.refusing = false;

  // Another browser opens the link while the model's fetch is cut: the dog is shown meanwhile,
  // and an edit of it (flushed by a reload) leaves the link as it was.
  const other = await newPage(env);
  const model = /models\/all-minilm-l6-v2\.safetensors$/;
  await other.route(model, (route) => route.abort());
  await other.goto(link);
  await other.waitForSelector('[data-stat="pretrained-error"]', { timeout: 60_000 });
  await other.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await other.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  await other.reload();
  await other.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(other.url(), link);
  await other.unroute(model);
  await unfold(other);
  await other.click('[data-action="retry-pretrained"]');
  assert.deepEqual(await eventually(() => state(other), (s) => s.pretrained?.changes.length === 1, { timeout: 60_000 }), left);
});

test("the layer-to-layer maps keep an outlier dimension from washing the rest out; an asked cell past the sentence says why", { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog&pretrained=all-minilm-l6-v2&layer=3&ask=weights.3:40,2`);
  await page.waitForSelector('[data-view="model"]', { timeout: 60_000 });
  await eventually(() => page.inputValue('[data-control="layer"]'), (l) => l === '3');
  // The dog's sentence is 11 pieces: the card has no cell to type in, and says why.
  assert.match(await page.textContent('[data-exercise="weights.3:40,2"] [data-stat="exercise-missing"]'), /^This model has no such cell now/);
  assert.ok(await page.isHidden('[data-exercise="weights.3:40,2"] [data-action="check"]'));
  const high = page.locator('[data-view="layer-steps"] .legend-high').first();
  await high.waitFor();
  assert.match(await high.textContent(), /^≥ /);
  await picture(page.locator('[data-view="layer-steps"]'), output('pretrained-layer-steps-spread.png'));
  assert.deepEqual(errors, []);
});
