// End-to-end: the page as learners and teachers use it (issue 20), each written as the person
// did it; every test here failed on the page before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { useBrowser, open, newPage, cellSelector, picture, output, written, settled, eventually, labMatrix, seededState } from './harness.mjs';

const env = useBrowser();

/** Whether the section `id` has been scrolled to: its top where its scroll margin puts it. */
const scrolledTo = (page, id) => page.waitForFunction((id) => {
  const section = document.getElementById(id);
  return Math.abs(section.getBoundingClientRect().top - parseFloat(getComputedStyle(section).scrollMarginTop)) < 4;
}, id);

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
});

test('the −∞ lab follows an edit while only its lower half is on screen', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // The lab's tables in view, its opening paragraph well above the screen.
  await page.$eval('table[data-lab-matrix="neg_inf"]', (t) => t.scrollIntoView({ block: 'start' }));
  await settled(page);
  assert.ok(await page.$eval('#lab-mask p.explain', (p) => p.getBoundingClientRect().bottom < -300), 'the paragraph is out of sight');
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
  // The lab redraws after the edit: until it shows the new weights (or time runs out).
  const lab = await eventually(() => labMatrix(page, 'neg_inf'), (lab) => isDeepStrictEqual(lab, weights));
  assert.deepEqual(lab, weights, 'Method 2 is the weights, as they are now');
});

test('"Open in the full explorer" carries the real address, shows every step and opens at the embed\'s first', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=scores,weights&hide=sentence`, undefined, '[data-matrix="weights"]');
  const href = await page.getAttribute('[data-action="open-full"]', 'href');
  assert.match(href, /^http:\/\/127\.0\.0\.1:\d+\/course\/attention\/#m=/, `a real address before any click: ${href}`);
  assert.doesNotMatch(href, /hide=|embed=|steps=/, href);
  assert.match(href, /at=scores/);
  const full = await newPage(env);
  await full.goto(href);
  await full.waitForSelector('[data-matrix="weights"]');
  assert.equal(await full.locator('text=Hidden. “Show” brings it back.').count(), 0, 'no hidden steps');
  assert.ok(await full.$('#step-sentence table, #step-sentence [data-control="sentence"]'), 'every step is there');
  await scrolledTo(full, 'step-scores');
});

test('every sentence that names a token follows a retyped word', async () => {
  // Raschka's example follows its last token (the dog's keeps following "she": round_two.test.mjs).
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.click('[data-control="sentence"]');
  await page.keyboard.press('End');
  await page.keyboard.type(' you love', { delay: 5 });
  await page.waitForFunction(() => document.querySelector('figure.lines figcaption')?.textContent.includes('“love”'));
  const caption = await page.textContent('figure.lines figcaption');
  assert.match(caption, /^Where “love” looks/, caption);
  const label = await page.getAttribute('svg[data-view="lines"]', 'aria-label');
  assert.match(label, /^Where “love” looks/, label);
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
});

test('typing "1,5" into a cell keeps the number from before the typing, names it, and leaves nothing to undo', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  const cell = cellSelector('w_query', 1, 0);
  const value = await page.getAttribute(cell, 'data-value');
  await page.focus(`${cell} input`);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('1,5');
  const id = await page.getAttribute(`${cell} input`, 'aria-describedby');
  assert.match(await page.textContent(`#${id}`), /still using 0\.2517\./);
  assert.equal(await page.getAttribute(cell, 'data-value'), value, 'the "1" typed on the way is not kept');
  await page.keyboard.press('Tab');
  assert.equal(await page.isDisabled('[data-action="undo"]'), true, 'no step that changes nothing');
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
});

test('before its code runs the page shows its title and a loading line, and says why when the code cannot load', async () => {
  // Not through `open`: the failed load is the point.
  const page = await newPage(env);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.abort().catch(() => {}); });
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
});

test('on a phone every small button is at least 24 × 24 px to tap', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`, { width: 390, height: 844 });
  const small = await page.$$eval('.face-toggle, .toggle, nav.pipeline a', (els) =>
    els.filter((e) => e.offsetParent !== null)
      .map((e) => [e.textContent.trim(), e.getBoundingClientRect()])
      .filter(([, r]) => r.width < 24 || r.height < 24)
      .map(([t, r]) => `${t} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`));
  assert.deepEqual(small, []);
});

/** WCAG's contrast ratio of two CSS colours as getComputedStyle gives them (rgb or rgba over `base`). */
function contrast(a, b) {
  const lum = ([r, g, b2]) => {
    const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b2);
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
/** The colour an element shows: its background laid over its panel, as [r, g, b]. */
const shown = (page, selector) => page.$eval(selector, (el) => {
  const parse = (c) => c.match(/[\d.]+/g).map(Number);
  const [r, g, b, a = 1] = parse(getComputedStyle(el).backgroundColor);
  const panel = parse(getComputedStyle(el.closest('.step')).backgroundColor);
  const text = parse(getComputedStyle(el).color);
  return { fill: [r, g, b].map((v, i) => Math.round(panel[i] + (v - panel[i]) * a)), text: text.slice(0, 3) };
});

test('in both themes the largest and smallest weight differ by 3:1 and every number keeps 4.5:1', async () => {
  for (const theme of ['light', 'dark']) {
    const { page } = await open(env.browser, `${env.base}?preset=dog&theme=${theme}`);
    const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
    // The map's largest and smallest weight a query may see (the causal mask hides the rest).
    const seen = weights.flatMap((row, i) => row.slice(0, i + 1).map((w, j) => [w, i, j]));
    const [hi] = seen.reduce((a, b) => (b[0] > a[0] ? b : a));
    const [lo] = seen.reduce((a, b) => (b[0] < a[0] ? b : a));
    const place = (v) => seen.find(([w]) => w === v);
    const strong = await shown(page, cellSelector('weights', place(hi)[1], place(hi)[2]));
    const weak = await shown(page, cellSelector('weights', place(lo)[1], place(lo)[2]));
    const big = contrast(strong.fill, weak.fill);
    assert.ok(big >= 3, `${theme}: largest against smallest ${big.toFixed(2)}`);
    assert.ok(contrast(strong.fill, strong.text) >= 4.5, `${theme}: text on the strongest cell`);
    assert.ok(contrast(weak.fill, weak.text) >= 4.5, `${theme}: text on the weakest cell`);
    // The attention lines: she's strongest line (to "dog") stands out from the panel.
    const line = await page.$eval('svg[data-view="lines"] line[data-key="1"]', (l) => {
      const parse = (c) => c.match(/[\d.]+/g).map(Number);
      const stroke = parse(getComputedStyle(l).stroke);
      const alpha = Number(l.getAttribute('stroke-opacity'));
      const panel = parse(getComputedStyle(l.closest('.step')).backgroundColor);
      return { line: stroke.slice(0, 3).map((v, i) => Math.round(panel[i] + (v - panel[i]) * alpha)), panel: panel.slice(0, 3) };
    });
    assert.ok(contrast(line.line, line.panel) >= 3, `${theme}: the strongest line ${contrast(line.line, line.panel).toFixed(2)}`);
    // A near-uniform map: raschka's weights (all within 0.13 … 0.22) still span the scale.
    await page.selectOption('[data-control="preset"]', 'raschka');
    await page.waitForFunction(() => window.attentionExplorer.state().sentence.startsWith('Life'));
    const w = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].weights;
    const flat = w.flat();
    const at = (v) => { const k = flat.indexOf(v); return cellSelector('weights', Math.floor(k / 6), k % 6); };
    const r = contrast((await shown(page, at(Math.max(...flat)))).fill, (await shown(page, at(Math.min(...flat)))).fill);
    assert.ok(r >= 3, `${theme}: raschka's largest against smallest ${r.toFixed(2)}`);
    await picture(page.locator('#step-weights'), output(`use-heat-${theme}.png`));
    await page.close();
  }
});

test('the dog story opens following "she", with the tutorial\'s literals in its state', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  assert.match(await page.textContent('figure.lines figcaption'), /^Where “she” looks/);
  assert.equal(await page.getAttribute('.token:has-text("she")', 'aria-pressed'), 'true');
  const state = await page.evaluate(() => window.attentionExplorer.state());
  assert.deepEqual(state.heads[0].w_query[1], [2.59, 1.43, 0.86]);
});

test('click a cell and type: the number is replaced; a second click or F2 edits in place', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const cell = cellSelector('w_value', 0, 0);
  await page.locator(`${cell} input`).scrollIntoViewIfNeeded();
  const box = await page.locator(`${cell} input`).boundingBox();
  // The click lands in the middle of "1.0000", as a learner's does.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.keyboard.type('2');
  assert.equal(await page.getAttribute(cell, 'data-value'), '2');
  await page.keyboard.press('Tab');
  // Back with a click, then a second click: the caret goes where the click was.
  await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
  await page.keyboard.type('5');
  assert.equal(await page.getAttribute(cell, 'data-value'), '2.00005');
  // F2 puts the caret at the end of a selected number.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  const text = await page.inputValue(`${cell} input`);
  await page.keyboard.press('F2');
  await page.keyboard.type('1');
  assert.equal(await page.getAttribute(cell, 'data-value'), String(Number(`${text}1`)));
  // An iPhone shows its full keyboard, with a minus sign, not the decimal pad.
  assert.equal(await page.getAttribute(`${cell} input`, 'inputmode'), null);
});

test('after scrolling to the last step, undo, redo, the mask, the scaling and the followed token are in reach', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page } = await open(env.browser, `${env.base}?preset=dog`, viewport);
    await page.fill(`${cellSelector('w_query', 0, 0)} input`, '2');
    await page.$eval('#step-context', (s) => s.scrollIntoView({ block: 'end' }));
    await settled(page);
    for (const control of ['[data-action="undo"]', '[data-action="redo"]', '[data-control="causal"]', '[data-control="scale"]', '[data-control="follow"]']) {
      const inReach = await page.$eval(control, (el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.top >= 0 && r.bottom <= innerHeight && (hit === el || el.contains(hit) || hit?.contains(el));
      });
      assert.ok(inReach, `${viewport.width}px: ${control} is on screen and uncovered`);
    }
    // The long outputs scroll away with the settings.
    assert.ok(await page.$eval('[data-action="copy-pytorch"], [data-control="preset"]', (el) => el.getBoundingClientRect().bottom < 0));
    await page.click('[data-action="undo"]');
    assert.equal(await page.getAttribute(cellSelector('w_query', 0, 0), 'data-value'), '0.5');
    await page.selectOption('[data-control="follow"]', '1');
    assert.match(await page.textContent('figure.lines figcaption'), /^Where “dog” looks/);
    await picture(page, output(`use-bar-${viewport.width}.png`), { fullPage: false });
    await page.close();
  }
});

test('a message never moves a table or covers a control', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const below = () => page.$eval('table[data-matrix="w_key"]', (t) => { const r = t.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width]; });
  const width = () => page.$eval('table[data-matrix="w_query"]', (t) => t.getBoundingClientRect().width);
  const [before, w] = [await below(), await width()];
  await page.click(`${cellSelector('w_query', 1, 1)} input`);
  await page.keyboard.type('abc');
  assert.ok(await page.$(`${cellSelector('w_query', 1, 1)} [role="alert"]`), 'the message shows');
  assert.deepEqual(await below(), before, 'the next table stays put');
  assert.equal(await width(), w, 'the table keeps its width');
  await page.keyboard.press('Escape');
  // On a phone too, for a matrix stacked under another: the message covers no button or field.
  const phone = (await open(env.browser, `${env.base}?preset=dog`, { width: 390, height: 844 })).page;
  for (const name of ['w_query', 'w_key', 'w_value']) {
    await phone.click(`${cellSelector(name, 1, 1)} input`);
    await phone.keyboard.type('1,5x');
    const covered = await phone.$eval(`${cellSelector(name, 1, 1)} [role="alert"]`, (alert) => {
      const a = alert.getBoundingClientRect();
      const own = alert.closest('td').querySelector('input');
      return [...document.querySelectorAll('button, input, select, textarea, canvas')]
        .filter((el) => el !== own && el.offsetParent !== null)
        .filter((el) => { const r = el.getBoundingClientRect(); return r.left < a.right && r.right > a.left && r.top < a.bottom && r.bottom > a.top; })
        .map((el) => el.outerHTML.slice(0, 80));
    });
    assert.deepEqual(covered, [], `${name}'s message covers nothing`);
    await phone.keyboard.press('Tab');
  }
  await picture(phone.locator('#step-projections'), output('use-cell-message-phone.png'));
  await phone.close();
  // A size field's message covers neither Undo nor Reset.
  await page.fill('[data-control="d_k"]', '999');
  await page.waitForSelector('.controls [role="alert"]');
  for (const action of ['undo', 'redo', 'reset']) {
    const free = await page.$eval(`[data-action="${action}"]`, (el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    });
    assert.ok(free, `${action} is uncovered`);
  }
  await picture(page.locator('.controls'), output('use-size-message.png'));
});

test('on a phone a wide table keeps its row labels, says it scrolls, and a heat map fits its column', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`, { width: 390, height: 844 });
  const table = page.locator('table[data-matrix="weights"]');
  await table.scrollIntoViewIfNeeded();
  const scroller = page.locator('#step-weights .scroll').first();
  assert.ok(await scroller.evaluate((s) => s.scrollWidth > s.clientWidth), 'the 9 × 9 table is wider than the phone');
  assert.ok(await page.locator('#step-weights .scroll-hint').first().isVisible(), 'a hint says it scrolls');
  const label = () => page.$eval('table[data-matrix="weights"] tbody th', (th) => th.getBoundingClientRect().x);
  const x = await label();
  await scroller.evaluate((s) => { s.scrollLeft = 200; });
  assert.ok(Math.abs((await label()) - x) < 1, 'the row label stays put');
  // A heat map of the weights: as wide as its column at most, and a tap still finds its cell.
  await page.click('#step-weights [data-action="toggle-view"]');
  const canvas = page.locator('canvas[data-matrix="weights"][data-view="heatmap"]');
  const [cw, column] = await canvas.evaluate((c) => [c.getBoundingClientRect().width, c.closest('.step').clientWidth]);
  assert.ok(cw <= column, `canvas ${cw} px in a ${column} px step`);
  const box = await canvas.boundingBox();
  // The last key of the last row: the bottom-right corner.
  await page.mouse.click(box.x + box.width - 3, box.y + box.height - 3);
  assert.equal(await canvas.getAttribute('data-cursor'), '8,8');
  await picture(page.locator('#step-weights'), output('use-phone-weights.png'));
});

test('words about the numbers follow the numbers: raschka\'s context step, and an embed without labs', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  const blend = await page.textContent('#step-context [data-stat="blend"]');
  assert.doesNotMatch(blend, /dog/);
  assert.match(blend, /^Here “first” pays [\d.]+% of its attention to “[^”]+”/, blend);
  assert.doesNotMatch(await page.textContent('#step-context'), /88%/);
  await page.close();
  // Re-initialised, the dog story is no longer the Example's: the menu says so.
  const { page: drawn } = await open(env.browser, `${env.base}?preset=dog`);
  await drawn.click('[data-action="reinit"]');
  await drawn.waitForFunction(() => document.querySelector('[data-control="preset"]').value === '');
  assert.match(await drawn.$eval('[data-control="preset"]', (s) => s.selectedOptions[0].textContent), /Your own model/);
  assert.doesNotMatch(await drawn.textContent('#step-context [data-stat="blend"]'), /88\.3%/);
  await drawn.close();
  const { page: embed } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=scale,mask,weights`);
  assert.doesNotMatch(await embed.textContent('main'), /lab below/);
  await embed.close();
  const { page: full } = await open(env.browser, `${env.base}?preset=dog`);
  assert.match(await full.textContent('#step-scale .explain'), /lab below/);
});

test('a teacher makes the snippet in the Embed dialog, copies it and pastes it into a plain page', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.base).origin });
  await page.click('[data-action="embed"]');
  // Its code comes on demand (a chunk of its own); "Loading the Embed dialog…" meanwhile.
  await page.waitForSelector('[data-control="embed-step"]');
  // Every step of a one-head model is preselected (no "output": it shows only with heads).
  const boxes = await page.$$eval('[data-control="embed-step"]', (els) => els.map((e) => [e.value, e.checked]));
  assert.deepEqual(boxes.map(([v]) => v), ['sentence', 'embedding', 'projections', 'qkv', 'scores', 'scale', 'mask', 'weights', 'context']);
  assert.ok(boxes.every(([, on]) => on));
  // A preset's every step: the embed's page of its own, its steps written in.
  const every = await page.inputValue('[data-export="embed"]');
  assert.ok(every.includes(`src="${env.base}embed-dog.html?preset=dog&amp;embed=1"`), every);
  for (const [step] of boxes) if (!['scores', 'weights'].includes(step)) await page.uncheck(`[data-control="embed-step"][value="${step}"]`);
  await page.selectOption('[data-control="embed-theme"]', { label: 'dark' });
  // The preview measures itself; the snippet takes its height. The teacher scrolls down to it
  // (below the opening; a frame off screen is not laid out by the browser, so it measures nothing).
  await page.$eval('[data-view="embed-preview"]', (f) => f.scrollIntoView());
  const frame = page.frameLocator('[data-view="embed-preview"]');
  await frame.locator('[data-matrix="weights"]').first().waitFor();
  const body = await frame.locator('body').evaluate((b) => b.offsetHeight);
  await page.waitForFunction((h) => document.querySelector('[data-export="embed"]').value.includes(`height="${h}"`), body);
  const snippet = await page.inputValue('[data-export="embed"]');
  assert.match(snippet, /steps=scores,weights/);
  assert.match(snippet, /theme=dark/);
  // The preset as it is is named, not written out: the embed shows its tables written at build
  // time before its code arrives.
  // On the embeds' entry page: index.html without the default opening page, which a frame never shows.
  assert.ok(snippet.includes(`src="${env.base}embed.html?preset=dog&amp;embed=1&amp;`), snippet);
  assert.doesNotMatch(snippet, /#m=/);
  assert.doesNotMatch(snippet, /hide=|output/);
  assert.match(snippet, /style="border:0;max-width:100%"/);
  assert.ok(body > 300 && body < 3000, `the two steps are ${body} px tall`);
  assert.ok(await page.isHidden('[data-stat="host-warning"]'), 'this server sends the header');
  await page.click('[data-action="copy-embed"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="copied"]').textContent.startsWith('Copied'));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
  await picture(page.locator('.embed-dialog'), output('use-embed-dialog.png'));

  // The course page: the snippet pasted into a plain page, opened on a phone.
  const course = await newPage(env, { viewport: { width: 390, height: 844 } });
  await course.setContent(`<h1>Week 5</h1>${snippet}<p id="after">Below the frame</p>`);
  const embedded = course.frameLocator('iframe[data-attention-explorer]');
  await embedded.locator('[data-matrix="weights"]').first().waitFor();
  // Its tables come first as written at build time; the live page takes over (data-ready).
  await embedded.locator('html[data-ready="true"]').waitFor();
  assert.deepEqual(await embedded.locator('.step-number').allTextContents(), ['1', '2'], 'badges count the embed\'s steps');
  // "Open in the full explorer" opens the full page, at the embed's first step.
  const full = await embedded.locator('.open-full a').getAttribute('href');
  assert.ok(full.startsWith(`${env.base}#`) && full.includes('at=scores'), full);
  // Undo and Reset are there with controls=none: a phone has no Ctrl+Z.
  assert.ok(await embedded.locator('[data-action="undo"]').isVisible());
  assert.ok(await embedded.locator('[data-action="reset"]').isVisible());
  // The snippet's script fits the frame to its content, within the phone's width.
  await course.waitForFunction(() => document.querySelector('iframe').style.height !== '');
  assert.ok(await course.$eval('iframe', (f) => f.getBoundingClientRect().right <= innerWidth));
  await picture(course, output('use-embed-course-phone.png'), { fullPage: true });
});

test("a teacher's pasted snippet of an exercise keeps a learner's attempt over a reload of the course page", async () => {
  const asked = 'scores.0:6,1';
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=${asked}`, undefined, '[data-exercise]');
  await page.click('[data-action="embed"]');
  await page.waitForSelector('[data-control="embed-step"]');
  const snippet = await page.inputValue('[data-export="embed"]');
  // The course page on a plain server of its own (this origin, a page the teacher made).
  const url = `${env.base}week-5.html`;
  const course = await newPage(env, { viewport: { width: 390, height: 844 } });
  await course.route(url, (route) => route.fulfill({ contentType: 'text/html', body: `<h1>Week 5</h1>${snippet}` }));
  await course.goto(url);
  const frame = course.frameLocator('iframe[data-attention-explorer]');
  const card = frame.locator(`[data-exercise="${asked}"]`);
  for (const answer of ['12', '13.83']) {
    await frame.locator(`[data-answer="${asked}"]`).fill(answer);
    await card.locator('[data-action="check"]').click();
  }
  await frame.locator(`[data-exercise="${asked}"][data-result="correct"]`).waitFor();
  // The learner comes back tomorrow: the course page reloads, the sandboxed frame starts empty
  // and the snippet's script hands it the attempt: right at the second try.
  await course.reload();
  await frame.locator(`[data-exercise="${asked}"][data-result="correct"]`).waitFor();
  assert.equal(await frame.locator(`[data-exercise="${asked}"]`).getAttribute('data-attempts'), '2');
  // Pasted twice on a page, the script listens once.
  assert.equal((snippet.match(/attentionExplorerFrames = true/g) ?? []).length, 1);
});

test('the Embed dialog warns when this server would leave a sandboxed frame blank', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // As python -m http.server answers: no Access-Control-Allow-Origin.
  // A chunk still in flight when the test ends meets a closed page: nothing to answer then.
  await page.route('**/*.wasm', async (route) => {
    const response = await route.fetch().catch(() => null);
    if (!response) return;
    const headers = { ...response.headers() };
    delete headers['access-control-allow-origin'];
    await route.fulfill({ response, headers }).catch(() => {});
  });
  await page.click('[data-action="embed"]');
  const warning = await page.waitForSelector('[data-stat="host-warning"]', { state: 'visible' });
  assert.match(await warning.textContent(), /Access-Control-Allow-Origin: \*/);
});

test('an embed numbers only the steps its model has', async () => {
  // The dog story has no positions: its scores are the embed's first step.
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=positions,scores`, undefined, '[data-matrix="scores"]');
  assert.deepEqual(await page.$$eval('section.step', (all) => all.map((s) => `${s.id} ${s.querySelector('.step-number').textContent}`)), ['step-scores 1']);
});

test('an embed with controls=none edits and undoes; an empty steps= is refused with a message', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=projections`, undefined, '[data-matrix="w_query"]');
  await page.fill(`${cellSelector('w_query', 0, 0)} input`, '3');
  await page.click('[data-action="undo"]');
  assert.equal(await page.getAttribute(cellSelector('w_query', 0, 0), 'data-value'), '0.5');
  await page.close();
  const { page: empty } = await open(env.browser, `${env.base}?preset=dog&embed=1&steps=`);
  assert.match(await empty.textContent('.load-message'), /steps=“” was ignored: it names no step/);
  assert.ok(await empty.$('#step-sentence'), 'every step is shown');
});

test('the walk\'s card never covers the figure a stop asks you to watch, and its last stop sums up', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page } = await open(env.browser, `${env.base}?preset=dog&walk=1`, viewport);
    for (const [stop, figure] of [[8, '#lab-sqrt-dk .lab-plot svg'], [10, 'table[data-lab-matrix="neg_inf"]']]) {
      while (!(await page.textContent('.walk-where')).startsWith(`${stop} of`)) await page.click('[data-action="walk-next"]');
      await page.waitForFunction((id) => document.getElementById(id).getAttribute('aria-current') === 'step', stop === 8 ? 'lab-sqrt-dk' : 'lab-mask');
      // The walk has done scrolling to the stop before the learner scrolls on.
      await settled(page);
      // The learner scrolls the figure to the middle of the screen, as one does to watch it.
      await page.$eval(figure, (f) => f.scrollIntoView({ block: 'center' }));
      const overlap = await page.$eval(figure, (f) => {
        const a = f.getBoundingClientRect(), b = document.querySelector('.walk').getBoundingClientRect();
        return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      });
      if (viewport.width >= 1000) assert.equal(overlap, 0, `stop ${stop}: the card stands beside the page`);
      else {
        // On a phone the card sits at the top: the figure's middle stays in sight below it.
        const clear = await page.$eval(figure, (f) => {
          const a = f.getBoundingClientRect(), b = document.querySelector('.walk').getBoundingClientRect();
          return (a.top + a.bottom) / 2 > b.bottom;
        });
        assert.ok(clear, `stop ${stop}: the figure's middle is below the card`);
      }
    }
    while ((await page.textContent('[data-action="walk-next"]')) !== 'Finish') await page.click('[data-action="walk-next"]');
    assert.match(await page.textContent('.walk-summary'), /^That is self-attention/);
    assert.match(await page.textContent('[data-stat="walk-story"]'), /“she” pays 88\.3% of its attention to “dog”/);
    await picture(page, output(`use-walk-last-${viewport.width}.png`));
    await page.click('[data-action="walk-next"]');
    await page.waitForSelector('.walk', { state: 'hidden' });
    await page.close();
  }
});

test('at 64 tokens and 16 heads the nav\'s "Context" lands on its step the first time', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await seededState(page, 64, { heads: 16 });
  await page.waitForFunction(() => document.querySelectorAll('#step-weights [data-matrix="weights"]').length > 0);
  await page.click('nav.pipeline a[href="#step-context"]');
  // The sections above render as they come near and move the page: the jump keeps its place.
  // Its top lands just under the sticky nav (its scroll margin).
  const top = () => page.$eval('#step-context', (e) => Math.round(e.getBoundingClientRect().top - parseFloat(getComputedStyle(e).scrollMarginTop)));
  await eventually(top, (t) => Math.abs(t) <= 2, { timeout: 5000 });
  await settled(page);
  assert.ok(Math.abs(await top()) <= 2, `step-context ${await top()} px from its place`);
  assert.deepEqual(errors, []);
});
