// End-to-end: the page as used, round two (issue 30): what learners, PyTorch users and teachers
// met with the newer features, each written the way the person did it; every test here failed
// on the page before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useBrowser, open, newPage, newContext, watch, showLab, eventually, state, cellSelector, paste, assertClose } from './harness.mjs';

const env = useBrowser();

const badges = (page) => page.locator('.step-number').allTextContents();
const numberedInOrder = (b) => b.length > 0 && b.every((x, i) => Number(x) === i + 1);

test('a learner turns positions and W_output on and off: the steps are numbered 1, 2, 3… at every moment', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const first = await badges(page);
  assert.ok(numberedInOrder(first), first.join(' '));
  const moves = [
    () => page.selectOption('[data-control="positions"]', 'sinusoidal'),
    () => page.check('[data-control="output-projection"]'),
    () => page.selectOption('[data-control="positions"]', 'none'),
    () => page.uncheck('[data-control="output-projection"]'),
  ];
  const lengths = [first.length + 1, first.length + 3, first.length + 2, first.length];
  for (const [k, move] of moves.entries()) {
    await move();
    const now = await eventually(() => badges(page), (b) => b.length === lengths[k] && numberedInOrder(b));
    assert.ok(numberedInOrder(now) && now.length === lengths[k], `after move ${k}: ${now.join(' ')}`);
  }
});

test('RoPE on the dog\'s odd dₖ: the select keeps the positions in use and the fix is offered beside it; turning it off again keeps the page alive', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const before = await state(page);
  await page.selectOption('[data-control="positions"]', 'rope_half');
  const offer = page.locator('[data-action="rope-even-dk"]');
  await offer.waitFor();
  assert.equal(await page.inputValue('[data-control="positions"]'), 'none', 'the select names the positions in use');
  assert.match(await page.textContent('.field-offer'), /needs an even dₖ \(here 3\)\. Make dₖ 4 and use RoPE$/);
  await offer.click();
  await page.waitForFunction(() => window.attentionExplorer.state().positions?.kind === 'rope_half');
  assert.equal(await page.inputValue('[data-control="positions"]'), 'rope_half');
  assert.equal(await page.inputValue('[data-control="d_k"]'), '4');
  assert.equal(await offer.count(), 0, 'the offer is gone once taken');
  // The order lab, where the walk's last stop says "choose RoPE", has the same choice.
  await showLab(page, 'lab-order');
  assert.equal(await page.inputValue('[data-control="order-positions"]'), 'rope_half');
  await page.selectOption('[data-control="order-positions"]', 'none');
  await page.waitForFunction(() => window.attentionExplorer.state().positions === undefined || window.attentionExplorer.state().positions?.kind === 'none');
  // Undone step by step, as done by hand: positions, RoPE, dₖ.
  for (let k = 0; k < 3; k += 1) await page.click('.edit-bar [data-action="undo"]');
  assert.deepEqual(await state(page), before);
});

test('editing another word of the dog sentence keeps following "she"', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const followed = () => page.$eval('[data-token][aria-pressed="true"]', (b) => [b.dataset.token, b.querySelector('.token-word').textContent]);
  assert.deepEqual(await followed(), ['6', 'she']);
  await page.fill('[data-control="sentence"]', 'The cat fetched the ball and she was happy');
  await page.waitForFunction(() => document.querySelector('[data-token="1"] .token-word')?.textContent === 'cat');
  assert.deepEqual(await followed(), ['6', 'she']);
  await page.fill('[data-control="sentence"]', 'The big cat fetched the ball and she was happy');
  await page.waitForFunction(() => document.querySelector('[data-token="9"]') !== null);
  assert.deepEqual(await followed(), ['7', 'she'], 'a word put before her moves her place');
});

test('a block pasted into the cell being edited shows its own new number at once', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const input = `${cellSelector('embedding', 0, 0, null)} input`;
  await page.click(input);
  await paste(page, input, '1.5 2.5\n3.5 4.5');
  await page.waitForFunction((s) => document.querySelector(s).value === '1.5000', input);
  assert.equal(await page.evaluate((s) => document.activeElement === document.querySelector(s), input), true, 'still focused');
  assert.equal((await state(page)).embedding[0][0], 1.5);
  assert.equal(await page.inputValue(`${cellSelector('embedding', 1, 1, null)} input`), '4.5000');
});

test('an embed\'s "Open in the full explorer" address carries the edited model before anyone clicks it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=projections`, undefined, '[data-matrix="w_query"]');
  const link = page.locator('[data-action="open-full"]');
  const first = await link.getAttribute('href');
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 1.25)), null);
  const href = await eventually(() => link.getAttribute('href'), (h) => h !== first);
  assert.notEqual(href, first, 'the address follows the edit');
  const { page: full } = await open(env.browser, new URL(href, page.url()).href);
  assert.equal((await state(full)).heads[0].w_query[0][0], 1.25);
});

test('an embed with controls=none shows students no Hide buttons; with the controls it does', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=scores,weights&controls=none`);
  assert.equal(await page.locator('[data-action="toggle-step"]').count(), 0);
  const { page: withControls } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=scores,weights&controls=all`);
  assert.equal(await withControls.locator('[data-action="toggle-step"]').count(), 2);
});

test('the walk numbers its stops once, and the projections step tells the dog\'s numbers from the seeded ones', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&walk=1`);
  assert.match(await page.textContent('.walk-where'), /^1 of \d+ · Sentence → tokens$/);
  const explain = await page.textContent('#step-projections .explain');
  assert.match(explain, /the dog's were written by hand/);
  assert.doesNotMatch(explain, /The Raschka presets draw them/);
});

test('the training lab offers only what the model has, and its link says only that', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await showLab(page, 'lab-train');
  for (const absent of ['w_output', 'positions']) {
    assert.ok(await page.isHidden(`[data-control="train-param"][value="${absent}"]`), `${absent} is not offered`);
  }
  await page.uncheck('[data-control="train-param"][value="w_query"]');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('train') !== null);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('train')), 'embedding,w_key,w_value');
});

test('a link\'s target is the page\'s from the first paint: its ∂L face and Copy as PyTorch\'s backward', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog#target=0:6,1&faces=w_query.0:gradient`);
  const table = page.locator('table[data-matrix="w_query"][data-head="0"][data-view="gradient"]');
  await table.waitFor();
  const expected = await page.evaluate(() => window.attentionExplorer.gradients({ attend: [{ head: 0, query: 6, key: 1 }] }));
  const shown = await table.evaluate((t) => [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.grad))));
  assertClose(shown, expected.grad.heads[0].w_query, 'the ∂L face before the lab is seen');
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  assert.match(script, /^loss\.backward\(\)/m);
  assert.match(script, /targets = \[\(0, 6, 1\)\]/);
  // After a reload the lab says no steps were taken here, not "steps 0" beside a loss.
  await showLab(page, 'lab-train');
  assert.match(await page.textContent('#lab-train'), /no steps on this page yet \(a curve is not kept in links or saved work\)/);
  assert.doesNotMatch(await page.textContent('#lab-train'), /steps 0/);
});

test('gradients read in powers of ten, and W_output\'s face under an attention target is zeros, said', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog#target=0:6,1&faces=w_query.0:gradient`);
  await page.check('[data-control="output-projection"]');
  const figure = page.locator('figure:has(table[data-matrix="w_output"])').first();
  await figure.locator('[data-action="toggle-gradient"]').click();
  const face = page.locator('table[data-matrix="w_output"][data-view="gradient"]');
  await face.waitFor();
  const cells = await face.locator('td').allTextContents();
  assert.ok(cells.length > 0 && cells.every((c) => c.trim() === '0'), cells.join(' '));
  assert.match(await figure.textContent(), /Every ∂L here is 0: the loss does not depend on these numbers/);
  // A small gradient is written as one, not as 0.0000.
  const tiny = await page.$$eval('table[data-matrix="w_query"][data-view="gradient"] td', (tds) =>
    tds.filter((td) => Math.abs(Number(td.dataset.grad)) < 1e-4 && Number(td.dataset.grad) !== 0).map((td) => td.textContent.trim()));
  for (const text of tiny) assert.match(text, /e-\d+$/);
  assert.ok(!(await page.locator('table[data-view="gradient"] td').allTextContents()).some((t) => /^-?0\.0+$|^-0$/.test(t.trim())), 'no 0.0000 or -0');
});

test('in a sandboxed embed a reload keeps the attempt: the course page hands back the progress the result messages carried', async () => {
  const src = `${env.base}?preset=dog&embed=1&steps=scores&ask=scores.0:6,1`;
  const course = await newPage(env);
  watch(course, src);
  // The course page keeps the last progress and gives it back whenever the frame says it listens.
  await course.setContent(`<script>
    window.kept = null; window.readies = 0;
    addEventListener('message', (e) => {
      const frame = document.querySelector('iframe').contentWindow;
      if (e.source !== frame) return;
      if (e.data.type === 'attention-explorer:ready') {
        readies += 1;
        if (kept) frame.postMessage({ type: 'attention-explorer:restore-progress', progress: kept, id: 1 }, '*');
      }
      if (e.data.type === 'attention-explorer:result' && e.data.progress) kept = e.data.progress;
    });
  </script><iframe src="${src}" sandbox="allow-scripts" width="800" height="700"></iframe>`);
  const frame = course.frameLocator('iframe');
  const card = frame.locator('[data-exercise="scores.0:6,1"]');
  for (const answer of ['12', '13.83']) {
    await frame.locator('[data-answer="scores.0:6,1"]').fill(answer);
    await card.locator('[data-action="check"]').click();
  }
  await course.waitForFunction(() => window.kept?.includes('correct\t2'));
  // The student reloads the frame: the page starts with nothing (no storage in a sandbox)...
  await course.evaluate(() => { const f = document.querySelector('iframe'); f.src = f.src; });
  await course.waitForFunction(() => window.readies === 2);
  // ...and is handed its attempt back: answered right at the second try, not a fresh start.
  await frame.locator('[data-exercise="scores.0:6,1"][data-result="correct"]').waitFor();
  assert.equal(await frame.locator('[data-exercise="scores.0:6,1"]').getAttribute('data-attempts'), '2');
});

test('progress() and restoreProgress() carry an attempt from one page to another, and refuse another page\'s', async () => {
  const url = `${env.base}?preset=dog&ask=scores.0:6,1`;
  const { page } = await open(env.browser, url);
  await page.click('[data-exercise="scores.0:6,1"] [data-action="reveal"]');
  const progress = await page.evaluate(() => window.attentionExplorer.progress());
  assert.equal(progress, 'scores.0:6,1\trevealed\t0\t\n');
  const context = await newContext(env);
  const { page: other } = await open(context, url);
  assert.equal(await other.evaluate((p) => window.attentionExplorer.restoreProgress(p), progress), null);
  await other.locator('[data-exercise="scores.0:6,1"][data-result="revealed"]').waitFor();
  assert.match(await other.evaluate(() => window.attentionExplorer.restoreProgress('weights.0:2\tcorrect\t1\tdog\n')), /^none of it is an exercise of this page/);
});

/** Every lab drawn (each draws once scrolled to), then the page's whole text. */
async function everyNumberShown(page) {
  for (const lab of ['lab-sqrt-dk', 'lab-mask', 'lab-train', 'lab-order']) await showLab(page, lab);
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(() => document.body.innerText);
}

test('an asked weight cannot be read elsewhere: not in the masking lab, not as 1 minus the rest of its row', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=weights.0:6,1`);
  const weight = await page.evaluate(() => window.attentionExplorer.trace().heads[0].weights[6][1]);
  const text = await everyNumberShown(page);
  for (const shown of [weight.toFixed(4), weight.toFixed(3)]) assert.ok(!text.includes(shown), `${shown} is on the page`);
  // The rest of the row is hidden too, in the step and in the lab.
  for (const table of ['table[data-matrix="weights"][data-head="0"]', 'table[data-lab-matrix="renormalized"]', 'table[data-lab-matrix="neg_inf"]']) {
    const row = await page.$$eval(`${table} td[data-row="6"]`, (tds) => tds.map((td) => td.textContent.trim()));
    assert.ok(row.every((t) => !/\d/.test(t)), `${table} row 6: ${row.join(' ')}`);
  }
});

test('an asked score cannot be read one multiplication away: its scaled and masked twins are hidden', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=scores.0:6,1`);
  const t = await page.evaluate(() => window.attentionExplorer.trace().heads[0]);
  const text = await everyNumberShown(page);
  const scaled = t.scores[6][1] / Math.sqrt(t.keys[0].length);
  for (const shown of [t.scores[6][1].toFixed(4), scaled.toFixed(4)]) assert.ok(!text.includes(shown), `${shown} is on the page`);
  for (const name of ['scaled_scores', 'masked_scores']) {
    assert.doesNotMatch(await page.textContent(cellSelector(name, 6, 1)), /\d/, name);
  }
});

test('the exercise maker closes with × or Esc, stands beside the page on a desktop, and says nothing stale', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const box = (selector) => page.locator(selector).first().boundingBox();
  const buttonsAt = await box('[data-action="embed"]');
  // Panels the settings open go below the row of buttons: the buttons stay where they were.
  await page.click('[data-action="import-torch"]');
  await page.waitForSelector('.import-torch');
  assert.deepEqual(await box('[data-action="embed"]'), buttonsAt);
  await page.click('[data-action="import-torch"]');
  await page.click('[data-action="author"]');
  await page.waitForSelector('.author-panel');
  for (const action of ['author-ask', 'author-goal']) assert.ok(await page.isDisabled(`[data-action="${action}"]`), action);
  // Beside the page: it covers neither the lines nor a table.
  const panel = await box('.author-panel');
  for (const covered of ['figure.lines', 'table[data-matrix="weights"]', 'table[data-matrix="w_query"]']) {
    const b = await box(covered);
    assert.ok(b.x + b.width <= panel.x, `${covered} ends at ${b.x + b.width}, the panel starts at ${panel.x}`);
  }
  await page.click(cellSelector('scores', 6, 1));
  assert.equal(await page.locator('.author-panel [role="alert"]').count(), 0);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.author-panel', { state: 'detached' });
  await page.click('[data-action="author"]');
  await page.click('[data-action="author-close"]');
  await page.waitForSelector('.author-panel', { state: 'detached' });
  assert.equal(await page.getAttribute('[data-action="author"]', 'aria-expanded'), 'false');
});

test('the maker says which step gives an asked score away, and the Embed dialog warns when the teacher ticks it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.click('[data-action="author"]');
  await page.waitForSelector('.author-panel');
  await page.click(cellSelector('scores', 6, 1));
  await page.click('[data-action="author-ask"]');
  // The link is the full page: its weights give the score back from another of its row.
  assert.match(await page.textContent('[data-stat="author-leak"]'), /step \d+ \(.*\) gives scores\.0:6,1 away: two weights of its row/);
  await page.click('[data-action="author-embed"]');
  await page.waitForSelector('[data-control="embed-step"]');
  assert.equal(await page.locator('[data-stat="embed-leak"]').count(), 0, 'the steps the exercise needs give nothing away');
  await page.check('[data-control="embed-step"][value="weights"]');
  assert.match(await page.textContent('[data-stat="embed-leak"]'), /gives scores\.0:6,1 away/);
  await page.uncheck('[data-control="embed-step"][value="weights"]');
  await page.waitForSelector('[data-stat="embed-leak"]', { state: 'detached' });
});

test('a goal\'s live value shows where the learner edits towards it, not only 3 000 px away in its step', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&goal=weights.0:6,4>=0.5&lock=embedding,w_value`);
  const echo = page.locator('#step-projections [data-goal-echo="weights.0:6,4>=0.5"]');
  await echo.waitFor();
  assert.match(await echo.textContent(), /^Goal\. Edit the model until .* Edit here; now 0\.\d{4}: not yet\.$/);
  assert.equal(await page.locator('#step-embedding [data-goal-echo]').count(), 0, 'the embedding is locked');
  for (const [col, value] of [[0, 5], [1, -5]]) {
    assert.equal(await page.evaluate(([c, v]) => window.attentionExplorer.edit('w_query', 0, 1, c, v), [col, value]), null);
  }
  await page.waitForSelector('#step-projections [data-goal-echo][data-goal-met="true"]');
  assert.match(await echo.textContent(), /met\.$/);
});

/** Opens the save menu `selector` is in, clicks it and returns the download's name and bytes. */
async function downloaded(page, selector) {
  await page.$eval(selector, (button) => { button.closest('details').open = true; });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** A PNG's width and height, from its header. */
const pngSize = (bytes) => {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'a PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
};

test('figures for slides: a matrix, its heat map, the attention lines and the loss curve as SVG and as PNG at print resolution', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&theme=dark`);
  const weights = 'figure:has([data-matrix="weights"][data-head="0"])';
  const svg = await downloaded(page, `${weights} [data-action="download-svg"]`);
  assert.equal(svg.name, 'weights-head0.svg');
  const text = svg.bytes.toString();
  assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok(text.includes('>0.8830<') && text.includes('>she<') && text.includes('fill="#111827"'), 'numbers, labels, the dark panel');
  const width = Number(text.match(/width="([\d.]+)"/)[1]);
  const png = await downloaded(page, `${weights} [data-action="download-png"]`);
  assert.equal(png.name, 'weights-head0.png');
  const [w, h] = pngSize(png.bytes);
  assert.equal(w, Math.round(width * 300 / 96), 'drawn at 300 dpi');
  assert.ok(h > 500, `${w} × ${h}`);
  // As a heat map: the colours without the numbers.
  await page.click(`${weights} [data-action="toggle-view"]`);
  const map = (await downloaded(page, `${weights} [data-action="download-svg"]`)).bytes.toString();
  assert.ok(!map.includes('>0.8830<') && map.includes('>she<'));
  // The attention lines, with their words, in the page's colours.
  const lines = (await downloaded(page, 'figure.lines [data-action="download-svg"]'));
  assert.equal(lines.name, 'attention-lines.svg');
  assert.match(lines.bytes.toString(), /<line[^>]*stroke="rgb/);
  assert.ok(lines.bytes.toString().includes('>dog<'));
  pngSize((await downloaded(page, 'figure.lines [data-action="download-png"]')).bytes);
  // The loss curve after a step.
  await showLab(page, 'lab-train');
  await page.click('[data-action="train-step"]');
  await page.waitForSelector('#lab-train path[data-curve="loss"]', { state: 'attached' });
  const loss = await downloaded(page, '#lab-train figure.loss-plot >> nth=0 >> [data-action="download-svg"]');
  assert.equal(loss.name, 'loss.svg');
  assert.match(loss.bytes.toString(), /data-curve="loss"/);
});

test('a 22-token weights map in dark mode: every weight a quarter up its scale stands 3:1 off the panel', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&theme=dark`);
  await page.fill('[data-control="sentence"]', Array.from({ length: 22 }, (_, i) => `w${i}`).join(' '));
  const map = page.locator('canvas[data-matrix="weights"][data-head="0"]');
  await map.waitFor();
  await map.scrollIntoViewIfNeeded();
  const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
  const seen = weights.flatMap((row, i) => row.slice(0, i + 1));
  const [low, high] = [Math.min(...seen), Math.max(...seen)];
  const box = await map.boundingBox();
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const panel = [0x11, 0x18, 0x27];
  let checked = 0;
  // Points over the map's lower triangle (where a causal map's weights are).
  const points = [];
  for (let a = 0; a < 14; a += 1) for (let b = 0; b <= a; b += 1) points.push([0.12 + (0.86 * (b + 0.5)) / 14, 0.12 + (0.86 * (a + 0.5)) / 14]);
  for (const [fx, fy] of points) {
    await map.hover({ position: { x: fx * box.width, y: fy * box.height } });
    const readout = page.locator('#weights-0-readout [data-value]');
    const [i, j] = await Promise.all(['data-row', 'data-col'].map((a) => readout.getAttribute(a)).map(async (v) => Number(await v)));
    if (j > i || (weights[i][j] - low) / (high - low) < 0.25) continue;
    // The cell's middle, away from the cursor's outline.
    const pixel = await map.evaluate((c, [x, y]) => [...c.getContext('2d').getImageData(Math.round(x * devicePixelRatio), Math.round(y * devicePixelRatio), 1, 1).data].slice(0, 3), [fx * box.width, fy * box.height]);
    assert.ok(contrast(pixel, panel) >= 3, `weights[${i}][${j}] = ${weights[i][j]}: ${pixel} is ${contrast(pixel, panel).toFixed(2)}:1`);
    checked += 1;
  }
  assert.ok(checked >= 3, `${checked} cells checked`);
});
