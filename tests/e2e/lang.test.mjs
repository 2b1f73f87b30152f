// End-to-end: the page in every learner's language (issue 50). `?lang=X` opens it in X (<html
// lang dir>, the walk), with none of the catalogue's English left visible; the picker switches
// without losing the model, undo or the link, and sticks; a browser set to Chinese gets Chinese on
// a first visit, its opening page in Chinese before the code; a teacher's embed and SCORM package
// carry lang=; nothing is fetched from another origin (the harness watches every request).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { useBrowser, open, newContext, watch, cellSelector, projectRoot, eventually, unzip } from './harness.mjs';

const env = useBrowser();

/** Every key's English, as `keys!` declares it (src/core/i18n/keys/). */
function english() {
  const dir = join(projectRoot, 'src/core/i18n/keys');
  const out = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.rs'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    const area = text.match(/keys! \{ "(\w+)";/)?.[1];
    if (!area) continue;
    for (const m of text.matchAll(/^\s+(\w+)(\([^)]*\))? = ("(?:[^"\\]|\\.)*");$/gm)) {
      out[`${area}.${m[1]}`] = { text: JSON.parse(m[3]), args: Boolean(m[2]) };
    }
  }
  return out;
}
const EN = english();
const texts = (tag) => JSON.parse(readFileSync(join(projectRoot, `www/i18n/${tag}.json`), 'utf8'));

/** The English sentences of the catalogue (without arguments) on the page: its text (all of
 * it, not `innerText`, which leaves out what is hidden or off screen: a lab far down the page
 * is skipped by `content-visibility`), or said to a screen reader (an `aria-label`, a `title`);
 * not `<noscript>`, which a page without scripts shows before it could know the language. */
const englishShown = (page, tag) => {
  const translated = texts(tag);
  const sentences = Object.entries(EN)
    .filter(([key, { text, args }]) => !args && text.includes(' ') && text.length > 12 && translated[key] !== text)
    .map(([, { text }]) => text);
  return page.evaluate((sentences) => {
    const said = [...document.querySelectorAll('[aria-label], [title]')]
      .map((e) => `${e.getAttribute('aria-label') ?? ''}\n${e.getAttribute('title') ?? ''}`);
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      if (!walker.currentNode.parentElement.closest('script, style, template, noscript')) texts.push(walker.currentNode.nodeValue);
    }
    const shown = [texts.join(' '), ...said].join('\n');
    return sentences.filter((s) => shown.includes(s));
  }, sentences);
};

for (const tag of ['zh-CN', 'es', 'pt-BR', 'fr', 'ko', 'ar']) {
  test(`?lang=${tag} opens the page in it, the walk and the labs too, with none of the catalogue's English shown`, async () => {
    const { page } = await open(env.browser, `${env.base}?lang=${tag}`);
    const t = texts(tag);
    assert.equal(await page.getAttribute('html', 'lang'), tag);
    assert.equal(await page.getAttribute('html', 'dir'), tag === 'ar' ? 'rtl' : 'ltr');
    assert.equal(await page.textContent('h1'), t['page.title']);
    assert.equal(await page.inputValue('[data-control="lang"]'), tag);
    assert.equal((await page.textContent('[data-stat="what-for"]')).trim().startsWith(t['intro.what_for_1'].slice(0, 8)), true);
    assert.equal(await page.textContent('[data-action="walk-start"]'), t['walk.start']);
    assert.deepEqual(await englishShown(page, tag), []);
    // Every lab's body, fetched as it comes near the screen.
    for (const id of await page.$$eval('.lab-section', (labs) => labs.map((l) => l.id))) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((id) => [...document.querySelectorAll(`#${id} .on-demand`)].every((d) => d.children.length > 0 && !d.querySelector('.loading')), id);
    }
    assert.deepEqual(await englishShown(page, tag), []);
    // The walk's panel, at its first stop.
    await page.click('[data-action="walk-start"]');
    assert.equal((await page.textContent('[data-action="walk-next"]')).trim(), t['walk.next']);
    assert.deepEqual(await englishShown(page, tag), []);
    // A matrix and its numbers read left to right, in Arabic too.
    assert.equal(await page.$eval('table[data-matrix="weights"]', (t) => getComputedStyle(t).direction), 'ltr');
  });
}

test('the picker switches the language without losing the model, undo or the link, and sticks', async () => {
  const { page } = await open(env.browser, env.base);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.fill(`${cellSelector('w_query', 1, 0)} input`, '-0.75');
  await page.keyboard.press('Enter');
  const weights = await page.getAttribute(cellSelector('weights', 2, 1), 'data-value');
  const url = await eventually(() => page.url(), (u) => /#m=/.test(u));
  assert.match(url, /#m=/);
  await page.selectOption('[data-control="lang"]', 'fr');
  await page.waitForSelector('html[lang="fr"]');
  assert.equal(await page.textContent('h1'), texts('fr')['page.title']);
  assert.equal(await page.getAttribute(cellSelector('w_query', 1, 0), 'data-value'), '-0.75');
  assert.equal(await page.getAttribute(cellSelector('weights', 2, 1), 'data-value'), weights);
  assert.equal(page.url(), url);
  // What was built in English is said in French too, to the eye and to a screen reader
  // ("Afficher table de plongement…", not "Afficher embedding table…").
  assert.deepEqual(await englishShown(page, 'fr'), []);
  await page.keyboard.press('Escape');
  await page.click('h1');
  await page.keyboard.press('Control+z');
  const undone = await eventually(() => page.getAttribute(cellSelector('w_query', 1, 0), 'data-value'), (v) => v !== '-0.75');
  assert.notEqual(undone, '-0.75');
  // Kept in this browser: a reload is in French, and back to English by the picker.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.textContent('h1'), texts('fr')['page.title']);
  await page.selectOption('[data-control="lang"]', 'ar');
  await page.waitForSelector('html[dir="rtl"]');
  await page.selectOption('[data-control="lang"]', 'en');
  await page.waitForSelector('html[lang="en"][dir="ltr"]');
  assert.equal(await page.textContent('h1'), 'Attention Explorer');
});

test('a browser set to Chinese gets Chinese on a first visit: its opening page in Chinese before the code, then the live page', async () => {
  const context = await newContext(env, { locale: 'zh-CN' });
  const page = await context.newPage();
  watch(page, env.base);
  // The code held back: what shows before it.
  let release;
  const gate = new Promise((done) => { release = done; });
  await page.route(/attention-explorer_bg\.wasm$/, async (route) => { await gate; await route.continue().catch(() => {}); });
  await page.goto(env.base, { waitUntil: 'domcontentloaded' });
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  const t = texts('zh-CN');
  await page.waitForSelector('#prerendered table[data-matrix="weights"]', { state: 'visible' });
  assert.equal(await page.textContent('#prerendered h1'), t['page.title']);
  // Loading, then once the opening page's own module answers, saying that numbers typed work.
  await page.waitForSelector('#prerendered[data-live]', { state: 'attached' });
  assert.equal(await page.textContent('#boot-status'), t['page.loading_live']);
  assert.deepEqual(await englishShown(page, 'zh-CN'), []);
  const before = await page.$$eval('#prerendered [data-matrix="weights"] td', (c) => c.map((td) => td.dataset.value));
  release();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
  assert.equal(await page.$('#prerendered'), null);
  assert.equal(await page.textContent('h1'), t['page.title']);
  assert.deepEqual(await page.$$eval('[data-matrix="weights"] td', (c) => c.map((td) => td.dataset.value)), before);
  assert.deepEqual(await englishShown(page, 'zh-CN'), []);
});

test('a teacher\u2019s embed snippet, made in a language, opens in it', async () => {
  const { page } = await open(env.browser, `${env.base}?lang=es`);
  await page.click('[data-action="embed"]');
  const snippet = await page.inputValue('[data-export="embed"]');
  assert.match(snippet.replaceAll('&amp;', '&'), /[?&]lang=es\b/);
  const src = snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
  const embedded = await open(env.browser, src, undefined, '[data-matrix]');
  assert.equal(await embedded.page.getAttribute('html', 'lang'), 'es');
  assert.equal(await embedded.page.getAttribute('html', 'dir'), 'ltr');
});

test('the pseudo-language (en-XA) lengthens every sentence of the catalogue', async () => {
  const { page } = await open(env.browser, `${env.base}?lang=en-XA`);
  const lead = await page.textContent('[data-stat="what-for"]');
  assert.match(lead, /^⟦/);
  assert.ok(lead.length > EN['intro.what_for_1'].text.length * 1.4);
});

test('a SCORM package made in Korean opens in Korean in the LMS, its language file inside', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=scores.0:6,1&lang=ko`);
  await page.click('[data-action="author"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="scorm"]')]);
  const files = unzip(await readFile(await download.path()));
  const text = (name) => new TextDecoder().decode(files.get(name));
  assert.match(text('launch.html'), /url=index\.html\?embed=1&amp;lang=ko&amp;ask=scores\.0:6,1#m=/);
  const file = [...files.keys()].find((n) => /^i18n\/ko-[0-9a-f]{16}\.txt$/.test(n));
  assert.ok(file, 'the Korean file is in the package');
  assert.match(text('imsmanifest.xml'), new RegExp(`<file href="${file}"/>`));
  // Served as an LMS serves a package.
  const types = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm', css: 'text/css', json: 'application/json' };
  const server = createServer((req, res) => {
    const body = files.get(decodeURIComponent(new URL(req.url, 'http://x').pathname.slice('/sco/'.length)));
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[req.url.split('?')[0].split('.').pop()] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { page: sco } = await open(env.browser, `http://127.0.0.1:${server.address().port}/sco/launch.html`, undefined, '[data-exercise]');
    assert.equal(await sco.getAttribute('html', 'lang'), 'ko');
  } finally {
    server.close();
  }
});

test("the core's refusals are in the learner's language, and reworded when it changes", async () => {
  const { page } = await open(env.browser, `${env.base}?lang=fr`);
  await page.fill(`${cellSelector('w_query', 1, 0)} input`, 'abc');
  await page.keyboard.press('Enter');
  const error = 'table[data-matrix="w_query"] .cell-error';
  await page.waitForSelector(error);
  assert.match(await page.textContent(error), /^«\sabc\s» n’est pas un nombre\s;\son garde 2\.5900\.$/);
  // A refusal the page holds follows the picker, as every other text.
  await page.selectOption('[data-control="lang"]', 'ar');
  await page.waitForSelector('html[lang="ar"]');
  assert.match(await page.textContent(error), /ليس عددًا/);
  // An exercise's verdict too: a wrong answer's "not yet" and its hint.
  const { page: ex } = await open(env.browser, `${env.base}?preset=dog&ask=scores.0:6,1&lang=es`, undefined, '[data-exercise]');
  await ex.fill('[data-answer="scores.0:6,1"]', '12');
  await ex.click('[data-exercise="scores.0:6,1"] [data-action="check"]');
  const said = await ex.textContent('[data-exercise="scores.0:6,1"] .exercise-said');
  assert.match(said, /^Todavía no \(1 de 3 intentos\)\. /);
  assert.doesNotMatch(said, /Not yet|the numbers it uses/);
});
