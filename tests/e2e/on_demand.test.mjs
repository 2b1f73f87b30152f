// End-to-end: code loaded on demand (issue 21's split, paying for issue 16). The training lab and
// the Embed dialog are their own wasm chunks, fetched the first time they are needed; a chunk
// that cannot be fetched says so where it would be, and the rest of the page works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open } from './harness.mjs';

const env = useBrowser();
const chunks = (page) => {
  const asked = [];
  page.on('request', (r) => { const m = r.url().match(/\/(split_\w+?)-[0-9a-f]{16}\.wasm$/); if (m) asked.push(m[1]); });
  return asked;
};

test('the training lab\'s code is fetched when the lab comes near, and the Embed dialog\'s when it opens', async () => {
  const { page: p } = await open(env.browser, `${env.base}?preset=dog`);
  // Watched from a fresh load.
  const seen = chunks(p);
  await p.reload();
  await p.waitForSelector('[data-matrix="weights"]');
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
  assert.deepEqual(seen, [], 'nothing on demand is fetched on opening');
  assert.ok(await p.$('#lab-train h2'), 'the lab\'s frame is there from the start (the walk and the nav reach it)');
  await p.$eval('#lab-train', (s) => s.scrollIntoView());
  await p.waitForSelector('[data-action="train-step"]');
  // The order lab's section is near the training lab's: its code may come too.
  const without = (chunks) => chunks.filter((c) => c !== 'split_order_lab');
  assert.deepEqual(without(seen), ['split_train_lab']);
  await p.click('[data-action="train-step"]');
  await p.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  await p.$eval('[data-action="embed"]', (b) => b.scrollIntoView());
  await p.click('[data-action="embed"]');
  await p.waitForSelector('[data-control="embed-step"]');
  assert.deepEqual(without(seen), ['split_train_lab', 'split_embed_dialog']);
  await p.close();
});

test('a chunk that cannot be fetched says so in the lab, and the rest of the page keeps working', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await page.route(/split_train_lab-[0-9a-f]+\.wasm$/, (route) => route.abort('internetdisconnected'));
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
  await page.close();
});
