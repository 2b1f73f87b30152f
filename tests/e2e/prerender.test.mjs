// End-to-end: the opening page written at build time (issue 32, www/prerender.mjs). With the wasm
// held back, a visit to the default page or a preset's link shows its real tables at once; when
// the wasm arrives the app takes the page over: the same data-value in every cell, no table
// moved (layout shifts measured), a number typed meanwhile kept and committed, the focus kept,
// no console error or CSP violation. A visit that opens anything else shows the loading line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newContext, watch, state, cellSelector, eventually } from './harness.mjs';

const env = useBrowser();
const WASM = /code-[0-9a-f]{16}\/attention-explorer_bg\.wasm$/;

/** Opens `url` in a fresh context with the main wasm held until `release()` is called. */
async function held(url, options = {}) {
  const context = await newContext(env, { viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  watch(page, url);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.sample}`));
    // Each shift's score, and what moved (said when a test fails).
    window.shifts = [];
    window.shifted = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => {
      // The loading line floats over the page (its box may settle as the fonts do): not content.
      if (e.sources.every((s) => s.node?.id === 'boot')) return;
      // Before the HTML is parsed the browser may paint half of it (a button whose text has not
      // arrived yet): any static page does that; the takeover comes later.
      const parsed = performance.getEntriesByType('navigation')[0]?.domInteractive;
      if (!parsed || e.startTime < parsed) return;
      window.shifts.push(e.value);
      window.shifted.push(...e.sources.map((s) => `${s.node?.nodeName ?? '?'}#${s.node?.id ?? ''}.${s.node?.className ?? ''} at ${Math.round(e.startTime)} ms: ${JSON.stringify(s.previousRect)} → ${JSON.stringify(s.currentRect)}`));
    }))
      .observe({ type: 'layout-shift', buffered: true });
  });
  let release;
  const gate = new Promise((done) => { release = done; });
  // A request the page dropped meanwhile (a reload) cannot be continued: nothing to do then.
  await page.route(WASM, async (route) => { await gate; await route.continue().catch(() => {}); });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return { page, release };
}

/** Every cell of the page's tables: where it is, its value, its box in its step and, on screen,
 * its box in the page. A step out of sight is laid out at a guessed height until it is first
 * painted (`content-visibility: auto`), so where a step below the screen starts depends on which
 * steps the browser has painted yet, which the learner does not see. */
const readCells = () => [...document.querySelectorAll('main:not(#boot) table[data-matrix] [data-value]')]
  .filter((c) => c.closest('main').checkVisibility())
  .map((c) => {
    const t = c.closest('table');
    const box = c.getBoundingClientRect();
    const step = c.closest('.step')?.getBoundingClientRect() ?? { x: 0, y: -scrollY };
    const seen = box.bottom > 0 && box.top < innerHeight ? ` page @${Math.round(box.x)},${Math.round(box.y + scrollY)}` : '';
    return `${t.dataset.matrix}/${t.dataset.head ?? ''}/${c.dataset.row},${c.dataset.col}=${c.dataset.value} @${Math.round(box.x - step.x)},${Math.round(box.y - step.y)}${seen}`;
  });
const cells = (page) => page.evaluate(readCells);

const ready = (page) => page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });

for (const [name, url, scheme] of [['the default page', '', 'light'], ['the default page in dark', '', 'dark'], ['a preset\u2019s link', '?preset=raschka', 'light']]) {
  test(`${name}: its tables before the wasm, the same cells in the same places after it`, async () => {
    const { page, release } = await held(env.base + url, { colorScheme: scheme });
    await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
    // "Loading the explorer…", or once the opening page answers "Numbers you type work already;
    // the rest of the explorer is loading…"
    assert.match(await page.textContent('#boot-status'), /loading/i);
    assert.ok(await page.isVisible('#boot-status'), 'the loading line floats at the foot');
    const before = await cells(page);
    assert.ok(before.length > 100, `${before.length} cells shown before the wasm`);
    release();
    await ready(page);
    assert.equal(await page.$('#prerendered'), null);
    assert.equal(await page.$('#boot'), null);
    assert.deepEqual(await cells(page), before);
    const [shifts, shifted] = await page.evaluate(() => [window.shifts, window.shifted]);
    assert.equal(shifts.reduce((a, b) => a + b, 0), 0, `layout shifts ${shifts}: ${shifted.join('; ')}`);
  });
}

test('the live page is built behind the snapshot a step at a time, the snapshot shown until it is whole', async () => {
  const { page, release } = await held(env.base);
  await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
  // The live page's steps each time the DOM changed while the snapshot was on screen. A step is
  // built in a task of its own, so each arrives in its own mutation records.
  await page.evaluate(() => {
    window.built = [];
    new MutationObserver(() => {
      const live = document.querySelector('body > main:not(#prerendered)');
      const snapshot = document.getElementById('prerendered');
      if (live && snapshot) window.built.push([live.querySelectorAll('section.step').length, snapshot.checkVisibility(), live.checkVisibility()]);
    }).observe(document.body, { childList: true, subtree: true });
  });
  release();
  await ready(page);
  const built = await page.evaluate(() => window.built);
  // Sections: the steps and the labs after them; parts: the page's head, then each step with its labs.
  const sections = await page.$$eval('main section.step', (all) => all.length);
  const steps = await page.$$eval('main section.step[id^="step-"]', (all) => all.length);
  const counts = [...new Set(built.map(([n]) => n))];
  assert.equal(counts.length, 1 + steps, `built in parts of ${counts} sections`);
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'in the page\'s order');
  assert.equal(counts.at(-1), sections);
  assert.ok(built.every(([, snapshot, live]) => snapshot && !live), 'the snapshot shows, the live page waits');
});

test('a preset\u2019s snapshot that comes after the wasm still shows first: the app waits for it', async () => {
  const context = await newContext(env, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watch(page, `${env.base}?preset=raschka`);
  let release;
  const gate = new Promise((done) => { release = done; });
  await page.route(/prerendered-raschka-[0-9a-f]+\.html$/, async (route) => { await gate; await route.continue().catch(() => {}); });
  const wasm = page.waitForResponse(WASM);
  await page.goto(`${env.base}?preset=raschka`, { waitUntil: 'domcontentloaded' });
  await (await wasm).finished();
  await page.waitForTimeout(300);
  assert.ok(await page.$('#boot'), 'the loading line stays');
  assert.equal(await page.$('body > main:not(#prerendered):not(#boot)'), null, 'the app has not started');
  // Read as soon as it is shown: the app, its code already in, may take over a moment later.
  const shown = page.evaluate(`new Promise((done) => {
    const read = ${readCells};
    const check = (_, watching) => {
      if (!document.querySelector('#prerendered table[data-matrix="weights"]') || 'fetching' in document.documentElement.dataset) return;
      watching?.disconnect();
      done(read());
    };
    new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true, attributeFilter: ['data-fetching'] });
  })`);
  release();
  const before = await shown;
  assert.ok(before.length > 100, `${before.length} cells shown`);
  await ready(page);
  assert.equal(await page.$('#prerendered'), null);
  assert.deepEqual(await cells(page), before);
  await context.close();
});

test('a number typed before the wasm is kept, committed once it arrives, with the focus', async () => {
  // The page, and an embed (whose wasm comes after its steps' files: a longer while to type in).
  for (const query of ['', '?embed=1&preset=dog&steps=projections,weights']) {
    const { page, release } = await held(env.base + query);
    const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
    // The asked page in (an embed's steps are fetched over the default page) and answering.
    await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
    const weightsShown = await page.$$eval('#prerendered table[data-matrix="weights"] [data-value]', (all) => all.map((c) => c.dataset.value).join());
    await page.click(cell);
    await page.fill(cell, '0.77');
    const weights = (scope) => page.$$eval(`${scope} table[data-matrix="weights"] [data-value]`, (all) => all.map((c) => c.dataset.value).join());
    const weightsTyped = await eventually(() => weights('#prerendered'), (w) => w !== weightsShown);
    release();
    await ready(page);
    const live = `${cellSelector('w_query', 0, 0)} input`;
    assert.equal(await page.$eval(live, (i) => [i.value, i === document.activeElement].join()), '0.77,true', query);
    assert.equal((await state(page)).heads[0].w_query[0][0], 0.77, query);
    assert.equal(await eventually(() => weights('main'), (w) => w === weightsTyped), weightsTyped, query);
  }
});

/** Each cell of the opening page's tables (`#prerendered`) or the app's (`main`): its table, place,
 * value, text and colour as painted. */
const painted = (page, scope) => page.$$eval(`${scope} table[data-matrix] td[data-value]`, (all) => all.map((td) => {
  const t = td.closest('table');
  const text = td.querySelector('input')?.value ?? td.textContent;
  return `${t.dataset.matrix}/${t.dataset.head ?? ''}/${td.dataset.row},${td.dataset.col}=${td.dataset.value} ${text} ${getComputedStyle(td).getPropertyValue('--heat')}${td.classList.contains('masked') ? ' masked' : ''}`;
}));

test('a number typed before the app\u2019s code reaches every later table at once, as the app then shows it', async () => {
  // The opening page's own small module (src/ui/live/) repaints it; the app, once in, applies
  // what was typed again: the same value, text and colour in every cell, and in the lines. In
  // English it says the sentences quoting the numbers again, as the app then says them; in
  // another language they are dimmed until the app comes with its words.
  for (const query of ['', '?preset=raschka', '?embed=1&preset=dog&steps=projections,weights', '?lang=es']) {
    const english = !query.includes('lang=');
    const { page, release } = await held(env.base + query);
    const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
    // The asked page in (a preset's is fetched over the default one) and its module answering.
    await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
    const shown = await painted(page, '#prerendered');
    const context = () => page.$eval('#prerendered', (main) => [...main.querySelectorAll('table[data-matrix="weights"] td, table[data-matrix="context"] td')].map((td) => td.dataset.value).join());
    // The story, the context step's blend, and each picture of lines' caption and label.
    const says = (root) => page.$$eval(`${root} :is([data-stat="story"], [data-stat="blend"], figure.lines figcaption, svg[data-query])`,
      (all) => all.map((e) => [e.tagName === 'svg' ? e.getAttribute('aria-label') : e.textContent, e.hasAttribute('data-stale') || e.getAttribute('aria-busy') === 'true']));
    const said = await says('#prerendered');
    assert.ok(said.length >= 2, `${query}: ${said}`);
    const before = await context();
    await page.click(cell);
    await page.keyboard.type('-1.5');
    await eventually(context, (now) => now !== before);
    const typed = await painted(page, '#prerendered');
    assert.notDeepEqual(typed, shown, query);
    // Only the numbers' cells changed: every table is still there, cell for cell.
    assert.equal(typed.length, shown.length, query);
    const lines = () => page.$$eval('svg[data-view$="lines"] line', (all) => all.map((l) => `${l.dataset.key} ${l.dataset.weight} ${l.getAttribute('stroke-width')}`));
    const linesTyped = await lines();
    const saidTyped = await says('#prerendered');
    // The loading line says what already works, in the page's language.
    const live = await page.evaluate((english) => (english
      ? JSON.parse(document.getElementById('contract').textContent).words.live
      : JSON.parse(document.documentElement.dataset.languages).es.live), english);
    assert.match(live, english ? /^Numbers you type work already/ : /^Los números/);
    assert.equal(await page.textContent('#boot-status'), live, query);
    if (english) {
      assert.notDeepEqual(saidTyped.map(([text]) => text), said.map(([text]) => text), query);
      assert.deepEqual(saidTyped.filter(([, stale]) => stale), [], query);
    } else {
      assert.deepEqual(saidTyped, said.map(([text]) => [text, true]), query);
    }
    release();
    await ready(page);
    assert.equal((await state(page)).heads[0].w_query[0][0], -1.5, query);
    assert.deepEqual(await eventually(() => painted(page, 'main'), (now) => String(now) === String(typed)), typed, query);
    assert.deepEqual(await lines(), linesTyped, query);
    assert.equal(await page.$('[data-stale]'), null, query);
    if (english) assert.deepEqual(await says('main'), saidTyped, query);
  }
});

test('a cell emptied before the app\u2019s code holds the number written there, as the app then has it', async () => {
  const { page, release } = await held(env.base + '?preset=raschka');
  const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
  // The asked page in (a preset's is fetched over the default one) and its module answering.
  await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
  const shown = await painted(page, '#prerendered');
  const computed = (cells) => cells.filter((c) => !c.startsWith('w_query/'));
  await page.click(cell);
  await page.keyboard.type('2');
  await eventually(() => painted(page, '#prerendered'), (now) => String(computed(now)) !== String(computed(shown)));
  // Emptied: not a number the app would take, so the seeded number stays, to its last digit.
  await page.keyboard.press('Backspace');
  assert.deepEqual(computed(await painted(page, '#prerendered')), computed(shown));
  release();
  await ready(page);
  const written = Number(shown.find((c) => c.startsWith('w_query/0/0,0=')).split(/[= ]/)[1]);
  assert.equal((await state(page)).heads[0].w_query[0][0], written);
  assert.deepEqual(computed(await painted(page, 'main')), computed(shown));
});

test('a setting changed before the app\u2019s code: the opening page paints no more numbers, the app shows them all', async () => {
  const { page, release } = await held(env.base);
  const cell = (i) => `#prerendered ${cellSelector('w_query', 0, i)} input`;
  // Its own module answering (else what it applies on arriving would come after `typed`).
  await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
  const shown = await painted(page, '#prerendered');
  await page.click(cell(0));
  await page.keyboard.type('2');
  const typed = await eventually(() => painted(page, '#prerendered'), (now) => String(now) !== String(shown));
  // The mask off: the opening page's numbers would say otherwise, so it leaves them to the app.
  await page.uncheck('#prerendered input[data-control="causal"]');
  await page.click(cell(1));
  await page.keyboard.type('3');
  const computed = (cells) => cells.filter((c) => !c.startsWith('w_query/'));
  assert.deepEqual(computed(await painted(page, '#prerendered')), computed(typed));
  // It says so: no longer live, its numbers dimmed and busy, the loading line back.
  assert.equal(await page.$('#prerendered[data-live]'), null);
  assert.deepEqual(await page.$$eval('#prerendered table[data-matrix]', (all) => [...new Set(all.map((t) => `${t.hasAttribute('data-stale')} ${t.getAttribute('aria-busy')}`))]), ['true true']);
  assert.equal(await page.textContent('#boot-status'), 'Loading the explorer…');
  release();
  await ready(page);
  const model = await state(page);
  assert.deepEqual([model.heads[0].w_query[0][0], model.heads[0].w_query[0][1], model.causal], [2, 3, false]);
});

test('a wrong number typed before the app\u2019s code changes nothing; the app then says why', async () => {
  const { page, release } = await held(env.base);
  const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
  // The asked page in (a preset's is fetched over the default one) and its module answering.
  await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
  const shown = await painted(page, '#prerendered');
  await page.click(cell);
  // "1" is applied on its way, then "1," goes back to the number from before the typing.
  await page.keyboard.type('1');
  await eventually(() => painted(page, '#prerendered'), (now) => String(now) !== String(shown));
  await page.keyboard.type(',5');
  const back = await eventually(() => painted(page, '#prerendered'), (now) => now.filter((c, i) => c !== shown[i]).every((c) => c.startsWith('w_query/0/0,0=')));
  assert.deepEqual(back.filter((c) => !c.startsWith('w_query/0/0,0=')), shown.filter((c) => !c.startsWith('w_query/0/0,0=')));
  release();
  await ready(page);
  assert.ok(await page.textContent(`${cellSelector('w_query', 0, 0)} .cell-error`));
  assert.equal((await state(page)).heads[0].w_query[0][0], Number(shown.find((c) => c.startsWith('w_query/0/0,0=')).split(/[= ]/)[1]));
});

test('a click on a cell before the wasm selects its number, so typing replaces it, as the live cells do', async () => {
  // Found on a slow phone: the caret landed inside the number, "3" made "1.34300", and the page
  // then used it without a word.
  for (const query of ['', '?embed=1&preset=dog&steps=projections,weights']) {
    const { page, release } = await held(env.base + query);
    const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
    // The asked page in (an embed's steps are fetched over the default page).
    await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
    await page.click(cell);
    await page.keyboard.type('3');
    assert.equal(await page.inputValue(cell), '3', query);
    // A second click in the cell being edited places the caret, as in the live page.
    await page.click(cell);
    await page.keyboard.press('End');
    await page.keyboard.type('5');
    assert.equal(await page.inputValue(cell), '35', query);
    release();
    await ready(page);
    assert.equal((await state(page)).heads[0].w_query[0][0], 35, query);
  }
  // A tap on a phone does the same.
  const { page, release } = await held(env.base, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const cell = `#prerendered ${cellSelector('w_query', 0, 0)} input`;
  await page.tap(cell);
  await page.keyboard.type('3');
  assert.equal(await page.inputValue(cell), '3', 'a tap');
  release();
  await ready(page);
  assert.equal((await state(page)).heads[0].w_query[0][0], 3, 'a tap');
});

test('a visit that opens anything else shows the loading line, not the default page', async () => {
  for (const url of ['?preset=raschka&focus=2', '#decimals=3']) {
    const { page, release } = await held(env.base + url);
    assert.equal(await page.isVisible('#prerendered'), false, url);
    assert.equal(await page.isVisible('#boot-status'), true, url);
    release();
    await ready(page);
  }
  // Saved work in this browser: the page brings it back, so the default page is not shown.
  const { page, release } = await held(env.base);
  await page.evaluate(() => localStorage.setItem('attention-explorer:work', 'preset=raschka'));
  await page.reload({ waitUntil: 'domcontentloaded' });
  assert.equal(await page.isVisible('#prerendered'), false);
  release();
  await ready(page);
  assert.match(await page.textContent('.work-note'), /last work/);
});

test('on a phone, a wide table scrolled before the wasm stays scrolled, and where it was on the screen', async () => {
  const { page, release } = await held(env.base, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const wide = await page.$$eval('#prerendered .scroll', (boxes) => boxes.findIndex((b) => b.scrollWidth > b.clientWidth + 40));
  assert.ok(wide >= 0, 'a table wider than the phone');
  await page.$$eval('#prerendered .scroll', (boxes, i) => { boxes[i].scrollIntoView(); boxes[i].scrollLeft = 40; }, wide);
  const top = await page.$$eval('#prerendered .scroll', (boxes, i) => Math.round(boxes[i].getBoundingClientRect().top) + 0, wide);
  release();
  await ready(page);
  // Where it is on the screen, not scrollY: a lab arriving above it moves the page's scroll with it.
  assert.deepEqual(await page.$$eval('main .scroll', (boxes, i) => [boxes[i].scrollLeft, Math.round(boxes[i].getBoundingClientRect().top) + 0], wide), [40, top]);
});

// On the full page, and on the embeds' entry page (embed.html, which the Embed dialog's snippets name).
for (const entry of ['', 'embed.html']) test(`an embed${entry && ` on ${entry}`}: the steps it asks for before the wasm, numbered, the same cells after it, its height told to the course page`, async () => {
  const url = `${env.base}${entry}?embed=1&preset=dog&steps=scores,weights`;
  const { page, release } = await held(url);
  // The embeds' entry page is the full page without the default opening page in it.
  if (entry) assert.doesNotMatch(await page.evaluate(() => fetch(location.href).then((r) => r.text())), /id="prerendered"/);
  await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
  assert.deepEqual(await page.$$eval('#prerendered section.step', (all) => all.map((s) => `${s.id} ${s.querySelector('.step-number').textContent}`)),
    ['step-scores 1', 'step-weights 2']);
  // "Open in the full explorer" before the wasm: the full page, the model, the embed's first step.
  const full = await page.$eval('#prerendered .open-full a', (a) => a.href);
  assert.match(full, new RegExp(`^${env.base.replaceAll('.', '\\.')}#m=[\\w-]+&at=scores$`));
  const before = await cells(page);
  release();
  await ready(page);
  assert.equal(await page.$('#prerendered'), null);
  assert.deepEqual(await cells(page), before);
  assert.equal(await page.$eval('main .open-full a', (a) => a.href), full);
  assert.equal((await page.evaluate(() => window.shifts)).reduce((a, b) => a + b, 0), 0, await page.evaluate(() => window.shifted.join('; ')));
  // In a course page's sandboxed frame: the frame says its height before the wasm has come.
  const context = await newContext(env);
  await context.route(WASM, (route) => route.abort().catch(() => {}));
  const course = await context.newPage();
  await course.setContent(`<script>window.heights = []; addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:resize') heights.push(e.data.height); });</script>
    <iframe src="${url}" sandbox="allow-scripts" width="800" height="300"></iframe>`);
  await course.waitForFunction(() => window.heights.length > 0);
  assert.ok(await course.frameLocator('iframe').locator('#boot-status').isVisible(), 'the loading line floats at the foot');
  const height = (await course.evaluate(() => window.heights))[0];
  assert.ok(height > 600, `${height} px: the two steps' tables`);
  assert.equal(await course.frameLocator('iframe').locator('#prerendered table[data-matrix="scores"]').count(), 1);
});

test('an embed\u2019s page of its own: its step written in, nothing fetched before the wasm; asked for another step, it fetches that', async () => {
  const url = `${env.base}embed-dog-weights.html?preset=dog&embed=1&steps=weights`;
  const fetched = [];
  const { page, release } = await held(url);
  page.on('request', (r) => { if (/prerendered-[\w-]+\.html$/.test(r.url())) fetched.push(r.url()); });
  await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
  assert.deepEqual(await page.$$eval('#prerendered section.step', (all) => all.map((s) => `${s.id} ${s.querySelector('.step-number').textContent}`)), ['step-weights 1']);
  const full = await page.$eval('#prerendered .open-full a', (a) => a.href);
  assert.match(full, new RegExp(`^${env.base.replaceAll('.', '\\.')}#m=[\\w-]+&at=weights$`));
  const before = await cells(page);
  release();
  await ready(page);
  assert.deepEqual(fetched, []);
  assert.deepEqual(await cells(page), before);
  assert.equal(await page.$eval('main .open-full a', (a) => a.href), full);
  assert.equal((await page.evaluate(() => window.shifts)).reduce((a, b) => a + b, 0), 0, await page.evaluate(() => window.shifted.join('; ')));
  // The same page asked for another step shows that one, fetched.
  const other = await held(`${env.base}embed-dog-weights.html?preset=dog&embed=1&steps=scores`);
  await other.page.waitForSelector('#prerendered table[data-matrix="scores"]', { state: 'visible' });
  assert.deepEqual(await other.page.$$eval('#prerendered section.step', (all) => all.map((s) => `${s.id} ${s.querySelector('.step-number').textContent}`)), ['step-scores 1']);
  other.release();
  await ready(other.page);
  assert.deepEqual(await other.page.$$eval('main section.step', (all) => all.map((s) => s.id)), ['step-scores']);
});

test('an embed asking for a step its model has not shows the others, as the app does', async () => {
  // One head: no concatenation. The app shows the weights alone, numbered 1, and opens the full
  // explorer there.
  const { page, release } = await held(`${env.base}?embed=1&steps=output,weights`);
  await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
  const shown = (scope) => page.$$eval(`${scope} section.step`, (all) => all.map((s) => `${s.id} ${s.querySelector('.step-number').textContent}`));
  const open = (scope) => page.$eval(`${scope} .open-full a`, (a) => a.href);
  const before = [await shown('#prerendered'), await open('#prerendered'), await cells(page)];
  assert.deepEqual(before[0], ['step-weights 1']);
  release();
  await ready(page);
  assert.deepEqual([await shown('main'), await open('main'), await cells(page)], before);
});

test('an embed that asks for more than steps, or for no step there is, shows the loading line', async () => {
  for (const query of ['?embed=1&steps=weights&focus=2', '?embed=1&steps=weights,nonsense', '?embed=1&controls=all', '?embed=1&steps=',
    // Only a step this model has not (one head: no concatenation), a key twice, a theme the app refuses, view= with embed=0.
    '?embed=1&steps=output', '?embed=1&steps=weights&steps=scores', '?embed=1&steps=weights&theme=blue', '?view=weights&embed=0']) {
    const { page, release } = await held(env.base + query);
    assert.equal(await page.isVisible('#prerendered'), false, query);
    release();
    await ready(page);
  }
});

test('the page starts fetching its code at once; an embed showing its steps, once their files are in', async () => {
  // A visit: the default page, an embed shown by the app alone, a preset's page and an embed of
  // its steps, whose snapshot files are held back meanwhile (an embed's code would share a slow
  // network with them).
  const CODE = /code-[0-9a-f]{16}\/attention-explorer(_bg\.wasm|\.js)$/;
  for (const [query, atOnce] of [['', true], ['?embed=1&steps=weights&focus=2', true], ['?preset=raschka', true], ['?embed=1&preset=dog&steps=scores,weights', false]]) {
    const context = await newContext(env);
    const page = await context.newPage();
    watch(page, env.base + query);
    const order = [];
    page.on('request', (r) => { if (CODE.test(r.url())) order.push(r.url().endsWith('.wasm') ? 'the wasm asked for' : 'the glue asked for'); });
    page.on('requestfinished', (r) => { if (/prerendered-[\w-]+\.html$/.test(r.url())) order.push('a snapshot file in'); });
    let release;
    const held = new Promise((done) => { release = done; });
    let holding = 0;
    await page.route(/prerendered-[\w-]+\.html$/, async (route) => { holding += 1; await held; await route.continue().catch(() => {}); });
    const asked = Promise.all([page.waitForRequest(/_bg\.wasm$/), page.waitForRequest(/code-[0-9a-f]{16}\/attention-explorer\.js$/)]);
    await page.goto(env.base + query, { waitUntil: 'commit' });
    if (atOnce) await asked;
    else {
      // boot.js has asked for the embed's shell and steps: had it put the code's preloads into
      // the page at once, they would be there now.
      assert.equal(await eventually(() => holding, (n) => n === 3), 3, query);
      assert.equal(await page.$$eval('head link[rel$=preload]', (all) => all.length), 0, query);
    }
    release();
    await ready(page);
    const code = ['the glue asked for', 'the wasm asked for'];
    assert.deepEqual(order.filter((what) => code.includes(what)).sort(), code, query);
    if (atOnce) assert.ok(order.indexOf('a snapshot file in') === -1 || order.indexOf('a snapshot file in') > 1, `${query}: ${order}`);
    else assert.deepEqual(order.slice(0, 3), ['a snapshot file in', 'a snapshot file in', 'a snapshot file in'], query);
    // The build's preloads, as boot.js puts them into the page.
    assert.deepEqual(await page.$$eval('head link[rel$=preload]', (all) => all.map((l) => `${l.rel} ${l.href.split('/').pop()}`.replace(/-[0-9a-f]{12,16}/, '')).sort()),
      ['modulepreload attention-explorer.js', 'modulepreload inline0.js', 'modulepreload inline1.js', 'modulepreload inline2.js', 'preload attention-explorer_bg.wasm'], query);
    await context.close();
  }
});
