// End-to-end: the language model (issue 48), used as a learner does: opened with its progress,
// the prompt cut into BPE pieces, the next token's probabilities equal to `attention-trace
// --decoder` on the same shipped file (the same float64 sums and libm's functions: equal, tested
// to 1e-12), a token written and taken back, an edit of a layer-0
// weight reaching the next token, a seeded draw written again after undo, the link bringing the
// page back, offline once fetched, an interrupted download said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useBrowser, open, projectRoot, eventually, picture, output, linkSettled, unfold, state } from './harness.mjs';

const env = useBrowser();
const SHIPPED = join(projectRoot, 'dist', 'models', 'smollm2-135m-instruct.Q4_1.gguf');
const PROMPT = 'The capital of France is';

/** The command line's run of the shipped file, in release (the debug build takes minutes). */
function cli(prompt, ...more) {
  const out = execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'attention-trace', '--', '--decoder', SHIPPED, '--prompt', prompt, ...more], { cwd: projectRoot, maxBuffer: 1 << 30 });
  return JSON.parse(out.toString());
}

/** The next-token view's rows, [id, probability], once the page's model has run (not busy). */
const rows = (page) => page.$$eval('[data-view="next-token"][aria-busy="false"] tr[data-token-id]', (r) => r.map((x) => [Number(x.dataset.tokenId), Number(x.dataset.prob)]));

/** The rows once the run of the page's model is done and they differ from `before`. */
const nextRows = (page, before = '') => eventually(() => rows(page), (r) => r.length === 10 && JSON.stringify(r) !== before, { timeout: 60_000 });

async function openModel(page) {
  await unfold(page);
  await page.click('[data-action="load-decoder"]');
  await page.waitForSelector('[data-view="next-token"]', { timeout: 90_000 });
}

const skip = !existsSync(SHIPPED) && 'no dist/models/ (run .ci/tools.sh, then build)';

test('a learner opens the language model: the next token as the command line gives it, one written and taken back', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  assert.equal(await page.inputValue('[data-control="sentence"]'), PROMPT);
  const got = await nextRows(page);
  const expected = cli(PROMPT, '--top', '10');
  const words = await page.$$eval('.tokens [data-token] .token-word', (w) => w.map((x) => x.textContent));
  assert.deepEqual(words, ['The', '␣capital', '␣of', '␣France', '␣is']);
  // The steps' words are this model's: its tokenizer, and X after RMSNorm with no positions.
  assert.match(await page.textContent('[data-note="bpe"]'), /byte-level BPE.*49 152/);
  assert.match(await page.textContent('[data-note="hidden-state"]'), /layer 0's attention is each token's row of the model's embedding after the layer's RMSNorm/);
  assert.deepEqual(got.map((r) => r[0]), expected.next.top.map((t) => t[0]));
  got.forEach(([id, p], k) => assert.ok(Math.abs(p - Math.exp(expected.next.top[k][1])) <= 1e-12, `${id}: ${p} vs ${Math.exp(expected.next.top[k][1])}`));
  assert.match(await page.textContent('[data-view="next-token"] tr[data-token-id] .piece'), /^␣Paris$/);
  // From the layer to the next, read-only: its four steps with the language model's formulas.
  const steps = page.locator('#language-model [data-view="layer-steps"]');
  await steps.waitFor();
  assert.equal(await steps.locator('figure.layer-step canvas').count(), 4);
  assert.match(await steps.textContent(), /RMSNorm\(x \+ attended\).*576 → 1536.*SwiGLU.*W_down: X of layer 1/);
  // The scripting API's trace: the layer, the ids and the next token as the command line's.
  const traced = await page.evaluate(() => window.attentionExplorer.trace());
  assert.equal(traced.layer, 0);
  assert.deepEqual(traced.ids, expected.ids);
  assert.equal(traced.next.top.length, 50);
  expected.next.top.forEach(([id, l], k) => assert.ok(traced.next.top[k][0] === id && Math.abs(traced.next.top[k][1] - l) <= 1e-12, `trace ${k}`));
  assert.ok(Math.abs(traced.next.logsumexp - expected.next.logsumexp) <= 1e-12);
  // Written: " Paris" joins the prompt, its keys and values from the cache.
  await page.click('[data-action="next-token"]');
  await eventually(() => page.inputValue('[data-control="sentence"]'), (t) => t === `${PROMPT} Paris`);
  const after = await nextRows(page, JSON.stringify(got));
  assert.match(await page.textContent('[data-stat="kv-cache"]'), /took 5 tokens' keys and values from the cache and computed only the 1 new/);
  const whole = cli(`${PROMPT} Paris`, '--top', '10');
  after.forEach(([id, p], k) => assert.ok(Math.abs(p - Math.exp(whole.next.top[k][1])) <= 1e-12, `${id} after Paris`));
  // Undo takes it back.
  await page.click('[data-action="undo"]');
  await eventually(() => page.inputValue('[data-control="sentence"]'), (t) => t === PROMPT);
  await nextRows(page, JSON.stringify(after));
  // "Write 20": the greedy text, a token per run from the cache, as the command line writes it.
  await page.click('[data-action="generate"]');
  await page.waitForSelector('[data-action="stop-generating"]:not([hidden])');
  await eventually(() => page.$eval('[data-action="stop-generating"]', (b) => b.hidden), (hidden) => hidden, { timeout: 120_000 });
  const generated = cli(PROMPT, '--top', '1', '--generate', '20');
  const written = await eventually(() => page.evaluate(() => window.attentionExplorer.trace()), (t) => t.next, { timeout: 60_000 });
  assert.deepEqual(written.ids, [...generated.ids, ...generated.generated]);
});

test('an edit of a layer-0 weight reaches the next token; a seeded draw is the same draw again', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  const before = await nextRows(page);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 3)), null);
  const edited = await nextRows(page, JSON.stringify(before));
  assert.ok(edited.some(([, p], k) => Math.abs(p - before[k][1]) > 1e-6), 'the probabilities move');
  // Sampling with a seed: what is written once is written again after undo.
  await page.check('[data-control="sample"]');
  await page.fill('[data-control="temperature"]', '1.5');
  await page.fill('[data-control="sample-seed"]', '7');
  await page.click('[data-action="next-token"]');
  const once = await eventually(() => page.inputValue('[data-control="sentence"]'), (t) => t.length > PROMPT.length);
  await page.click('[data-action="undo"]');
  await eventually(() => page.inputValue('[data-control="sentence"]'), (t) => t === PROMPT);
  await nextRows(page);
  await page.click('[data-action="next-token"]');
  await eventually(() => page.inputValue('[data-control="sentence"]'), (t) => t === once);
  // A wrong temperature is said, and the last good one kept.
  await page.fill('[data-control="temperature"]', '0');
  assert.match(await page.textContent('#temperature-error'), /the temperature must be above 0.*still using 1\.5/);
  await linkSettled(page);
  // The link brings back the prompt as written and the edited cell.
  const url = page.url();
  const { page: again } = await open(env.browser, url);
  await again.waitForSelector('[data-view="next-token"]', { timeout: 90_000 });
  assert.equal(await again.inputValue('[data-control="sentence"]'), once);
  assert.deepEqual((await again.evaluate(() => window.attentionExplorer.state())).pretrained.changes, [[0, 'w_query', 0, 0, 0, 3]]);
  assert.ok(await again.isChecked('[data-control="sample"]'));
  assert.equal(await again.inputValue('[data-control="temperature"]'), '1.5');
  assert.equal(await again.inputValue('[data-control="sample-seed"]'), '7');
  // A teacher's link: the model, a layer and how it chooses, on the link's sentence.
  const { page: taught } = await open(env.browser, `${env.base}?preset=raschka&pretrained=smollm2-135m-instruct&layer=2#draw=1&top_k=5&draw_seed=9`);
  await taught.waitForSelector('[data-view="next-token"]', { timeout: 90_000 });
  await eventually(() => taught.inputValue('#language-model [data-control="layer"]'), (l) => l === '2');
  assert.equal(await taught.inputValue('[data-control="sentence"]'), 'Life is short, eat dessert first');
  assert.equal(await taught.inputValue('[data-control="top-k"]'), '5');
  // Only the five most likely can be drawn: the others' probability after sampling is 0.
  const after = await eventually(() => taught.$$eval('[data-view="next-token"][aria-busy="false"] [data-after]', (c) => c.map((x) => Number(x.dataset.after))), (a) => a.length === 10, { timeout: 60_000 });
  assert.ok(after.slice(5).every((p) => p === 0) && after.slice(0, 5).every((p) => p > 0), JSON.stringify(after));
});

test("a head knocked out is what the command line's --ablate gives; the logit lens and the head gallery read the model", { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  const before = await nextRows(page);
  await page.click('.model-head[data-layer="3"][data-head="1"]');
  await page.check('[data-control="knockout"]');
  const knocked = await nextRows(page, JSON.stringify(before));
  const ablated = cli(PROMPT, '--top', '10', '--ablate', '3:1');
  knocked.forEach(([id, p], k) => {
    assert.equal(id, ablated.next.top[k][0]);
    assert.ok(Math.abs(p - Math.exp(ablated.next.top[k][1])) <= 1e-12, `${id}: ${p}`);
  });
  assert.deepEqual((await state(page)).pretrained.knocked, [[3, 1]]);
  await page.uncheck('[data-control="knockout"]');
  await nextRows(page, JSON.stringify(knocked));
  // The logit lens: the last layer's guess is the model's own, " Paris".
  await page.click('[data-view="logit-lens"] summary');
  const last = await eventually(() => page.$$eval('[data-view="logit-lens"] li', (l) => l.map((x) => [x.dataset.tokenId, x.dataset.prob])), (l) => l.length === 30, { timeout: 60_000 });
  assert.equal(Number(last[29][0]), before[0][0]);
  assert.ok(Math.abs(Number(last[29][1]) - before[0][1]) <= 1e-9);
  // The head gallery names layer 18 head 6 the strongest induction head, and opens it.
  await page.click('[data-view="head-gallery"] summary');
  const induction = page.locator('[data-view="head-gallery"] [data-kind="induction"]');
  await induction.waitFor({ timeout: 60_000 });
  assert.deepEqual([await induction.getAttribute('data-layer'), await induction.getAttribute('data-head')], ['18', '6']);
  await induction.locator('[data-action="open-head"]').click();
  await page.waitForSelector('[data-view="pretrained-head"][data-layer="18"][data-head="6"]');
});

test('a long prompt runs in chunks to what the command line gives; past 128 tokens it is refused beside the field', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  const first = await nextRows(page);
  // 54 pieces: three chunks of at most 24 through every layer, each cached for the next.
  const long = 'The cat sat on the mat. '.repeat(7) + 'The cat sat on the';
  await page.fill('[data-control="sentence"]', long);
  const got = await nextRows(page, JSON.stringify(first));
  assert.equal(await page.$$eval('.tokens [data-token]', (t) => t.length), 54);
  const expected = cli(long, '--top', '10');
  assert.deepEqual(got.map((r) => r[0]), expected.next.top.map((t) => t[0]));
  got.forEach(([id, p], k) => assert.ok(Math.abs(p - Math.exp(expected.next.top[k][1])) <= 1e-9, `${id}: ${p}`));
  assert.match(await page.textContent('[data-view="next-token"] tr[data-token-id] .piece'), /^␣mat$/);
  await page.fill('[data-control="sentence"]', 'a, '.repeat(70));
  await eventually(() => page.getAttribute('[data-control="sentence"]', 'aria-invalid'), (v) => v === 'true');
  const id = await page.getAttribute('[data-control="sentence"]', 'aria-describedby');
  assert.equal(await page.textContent(`#${id}`), 'Sentence: the prompt makes 141 tokens; the page shows 1 to 128. Still using the last one.');
  assert.deepEqual(await rows(page), got, 'the last good prompt\'s next token stays');
});

test('a download cut short says so and keeps the page; Try again opens the model', { skip }, async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  const sentence = await page.inputValue('[data-control="sentence"]');
  const file = /models\/smollm2-135m-instruct\.Q4_1\.gguf$/;
  await page.route(file, (route) => route.abort('connectionreset'));
  await unfold(page);
  await page.click('[data-action="load-decoder"]');
  await page.waitForSelector('[data-stat="decoder-error"]');
  assert.match(await page.textContent('[data-stat="decoder-error"]'), /The language model could not be fetched.*The rest of the page works/);
  assert.equal(await page.inputValue('[data-control="sentence"]'), sentence);
  await page.unroute(file);
  await page.click('[data-action="retry-decoder"]');
  await page.waitForSelector('[data-view="next-token"]', { timeout: 90_000 });
  await nextRows(page);
  errors.length = 0;
});

test('once opened, the language model opens offline', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Controlled by the worker, so that it keeps what the page fetches.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await openModel(page);
  const online = await nextRows(page);
  await linkSettled(page);
  await page.context().setOffline(true);
  env.server.refusing = true;
  await page.reload();
  await page.waitForSelector('[data-view="next-token"]', { timeout: 90_000 });
  assert.deepEqual(await nextRows(page), online);
});

test('the language model on a desktop and a phone, light and dark', { skip }, async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await openModel(page);
  await nextRows(page);
  for (const [name, viewport, theme] of [['desktop-light', { width: 1280, height: 900 }, 'light'], ['desktop-dark', { width: 1280, height: 900 }, 'dark'], ['phone-light', { width: 390, height: 844 }, 'light'], ['phone-dark', { width: 390, height: 844 }, 'dark']]) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: theme });
    await picture(page.locator('#language-model'), output(`decoder-${name}.png`));
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${name}: the page scrolls sideways`);
  }
});
