// End-to-end: code loaded on demand (issues 21 and 52). Each lab's body, the Embed dialog, the
// PyTorch import and script, the exercise maker, the positions step, the save panel, the
// exercises, the contents, the settings and the page's tools are wasm chunks of their own: the
// page's tools come as the page starts, the contents', the settings' and the √dₖ and masking
// labs' once the first screen is painted, the others' when first needed. They load in a sandboxed frame and, after a first visit, offline; a chunk that
// cannot be fetched says so where it would be, and the rest of the page works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useBrowser, open, sandboxedPage, projectRoot, unfold } from './harness.mjs';
import { PARTS } from './parts.mjs';

const env = useBrowser();
const CHUNK = /\/code-[0-9a-f]{16}\/(split_\w+?)\.wasm$/;
/** The chunks the page asks for (not the Embed dialog's preview, a page of its own). */
const chunks = (page) => {
  const asked = [];
  page.on('request', (r) => { const m = r.url().match(CHUNK); if (m && r.frame() === page.mainFrame()) asked.push(m[1]); });
  return asked;
};
/** Every chunk the build made. */
const built = readdirSync(join(projectRoot, 'dist'), { recursive: true }).map((f) => f.replaceAll('\\', '/').match(/^code-[0-9a-f]{16}\/(split_\w+?)\.wasm$/)?.[1]).filter(Boolean).sort();
const EXERCISES = { split_exercise_cards: '[data-exercise]', split_exercise_engine: '[data-stat="exercises_done"]' };
/** The link's reader: only a visit with a link other than an example's, or with saved work. */
const LINK_READER = 'split_link_reader';
/** An embed's link to the full explorer, as the embed starts (tests/e2e/prerender.test.mjs). */
const OPEN_FULL = 'split_open_full';

async function use(page, part) {
  const { near, click, select, shows, download } = PARTS[part];
  if (near) await page.$eval(near, (s) => s.scrollIntoView());
  if (click) {
    // A figure's save menu opens first.
    await page.$eval(click, (b) => { b.closest('details.figure-save')?.setAttribute('open', ''); b.scrollIntoView(); });
    if (download) await Promise.all([page.waitForEvent('download'), page.click(click)]);
    else await page.click(click);
  }
  if (select) await page.selectOption(...select);
  if (shows) await page.waitForSelector(shows, { state: 'attached' });
}

test('the page asks for its chunks only after its first screen, and for each other part when first used', async () => {
  assert.deepEqual(built, [...Object.keys(PARTS), ...Object.keys(EXERCISES), LINK_READER, OPEN_FULL].sort(), 'every chunk is a part tested here');
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // When the weights first show, in the page's clock.
  await page.addInitScript(() => new MutationObserver((_, watch) => {
    if (document.querySelector('[data-matrix="weights"]')) { window.weightsAt = performance.now(); watch.disconnect(); }
  }).observe(document, { childList: true, subtree: true }));
  const seen = chunks(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await unfold(page);
  assert.deepEqual(seen.sort(), ['split_mask_lab', 'split_page_tools', 'split_pipeline_nav', 'split_settings_panel', 'split_sqrt_dk_lab'], 'the page\'s tools, the contents, the settings and the labs near the top');
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/split_')).map((e) => e.startTime - window.weightsAt));
  assert.ok(fetched.every((after) => after >= 0), `fetched after the weights showed: ${fetched}`);
  // Ready means their figures are there, without scrolling to them.
  assert.equal(await page.getAttribute('[data-stat="renormalized_ok"]', 'data-value'), 'true');
  assert.ok(await page.$('#lab-train h2'), 'a lab\'s frame is there from the start (the walk and the nav reach it)');
  await page.route(/\.gguf$/, () => {});
  for (const part of ['split_train_lab', 'split_order_lab', 'split_kv_cache_lab', 'split_flash_lab', 'split_embed_dialog', 'split_import_panel', 'split_pytorch_panel', 'split_author_panel', 'split_positions_body', 'split_save_panel', 'split_figure_saver', 'split_pretrained_panel', 'split_language_panel']) {
    await use(page, part);
    assert.ok(seen.includes(part), `${part}: asked for when used (${seen})`);
  }
  assert.deepEqual([...seen].sort(), Object.keys(PARTS).sort(), 'each chunk, once');
  await page.click('[data-action="train-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  await page.close();

  const { page: learner } = await open(env.browser, `${env.base}?preset=dog&ask=weights.0:6,4`, undefined, '[data-exercise]');
  const asked = chunks(learner);
  await learner.reload();
  for (const shows of Object.values(EXERCISES)) await learner.waitForSelector(shows, { state: 'attached' });
  assert.deepEqual([...new Set(asked)].filter((c) => c.startsWith('split_exercise')).sort(), Object.keys(EXERCISES));
});

test('a link that asks for more than an example, or saved work, fetches the link\'s reader; without it the default example opens and the link and saved work are kept', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka&theme=dark`);
  const asked = chunks(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.ok(asked.includes(LINK_READER), `${asked}`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().sentence), 'Life is short, eat dessert first');
  // Saved work, for a plain visit: read by the reader too.
  await page.evaluate(() => localStorage.setItem('attention-explorer:work', 'preset=raschka'));
  const plain = chunks(page);
  await page.goto(env.base);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.ok(plain.includes(LINK_READER), `${plain}`);
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().sentence), 'Life is short, eat dessert first');

  // The reader cannot be fetched: a message, the default example, and nothing written over.
  await page.route(/\/split_link_reader\.wasm$/, (route) => route.abort('internetdisconnected'));
  const link = `${env.base}?preset=raschka&theme=dark#walk=1`;
  await page.goto(link);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.match(await page.textContent('.load-message'), /^The link and your saved work could not be read: part of the page's code did not arrive/);
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().sentence), 'The dog fetched the ball and she was happy');
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  await page.waitForTimeout(900);
  assert.equal(page.url(), link);
  assert.equal(await page.evaluate(() => localStorage.getItem('attention-explorer:work')), 'preset=raschka');
  // The loader logged why; that is expected here.
  assert.ok(errors.some((e) => /Failed to fetch|TypeError/.test(e)), JSON.stringify(errors));
  errors.length = 0;
});

test('in a sandboxed frame (an opaque origin) the chunks load from the app\'s server', async () => {
  const { course, errors } = await sandboxedPage(env, `${env.base}?preset=dog`, { width: 1000, height: 800, watched: true });
  const frame = () => course.frames()[1];
  const inside = course.frameLocator('iframe');
  await inside.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
  assert.equal(await frame().evaluate(() => self.origin), 'null');
  assert.equal(await inside.locator('[data-stat="renormalized_ok"]').getAttribute('data-value'), 'true');
  await inside.locator('#lab-train').scrollIntoViewIfNeeded();
  await inside.locator('[data-action="train-step"]').waitFor();
  await inside.locator('[data-action="train-step"]').click();
  await inside.locator('[data-stat="train_steps"]', { hasText: '1' }).waitFor();
  assert.deepEqual(errors, []);
});

test('after a first visit, the page opens and loads its chunks offline', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // The service worker keeps every file, the chunks not yet used among them.
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The network down for the page, and the server gone for the worker's own fetches (the
  // harness serves again after the test, whatever happens in it).
  await page.context().setOffline(true);
  env.server.refusing = true;
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await unfold(page);
  assert.equal(await page.getAttribute('[data-stat="renormalized_ok"]', 'data-value'), 'true');
  // (Not the Embed dialog: its preview is a sandboxed frame, which no service worker serves.)
  for (const part of ['split_train_lab', 'split_import_panel', 'split_positions_body', 'split_author_panel']) await use(page, part);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
});

test('a chunk that cannot be fetched says so in the lab, and the rest of the page keeps working', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await page.route(/\/split_train_lab\.wasm$/, (route) => route.abort('internetdisconnected'));
  await page.$eval('#lab-train', (s) => s.scrollIntoView());
  const message = page.locator('#lab-train [role="alert"]');
  await message.waitFor();
  assert.match(await message.textContent(), /^Could not load the lab \(the connection may be down\): reload the page to try again\. The rest of the page works\.$/);
  // Still alive: an edit goes through and every later step follows.
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().heads[0].w_query[0][0]), 2);
  assert.ok(await page.$('table[data-matrix="weights"] td[data-row="6"][data-col="1"]'));
  // The loader logged why; that is expected here.
  assert.ok(errors.some((e) => /Failed to fetch|TypeError/.test(e)), JSON.stringify(errors));
  errors.length = 0;
});
