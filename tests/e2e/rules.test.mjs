// End-to-end: what the one reducer refuses or ignores, seen the way people meet it (issue 29's
// defects): training at the extremes never writes a number the saved work cannot read back, a
// refused Reset or Restore says why, one edit meeting two goals posts two results, undo with
// nothing to undo is no goal's edit, and a script's train() cannot freeze the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, sandboxedPage, showLab, linkSettled, seededState, state, stat } from './harness.mjs';

const env = useBrowser();
const allNumbers = (s) => [s.embedding, ...s.heads.flatMap((h) => [h.w_query, h.w_key, h.w_value])].flat(2);

test('training with no scaling, large numbers and a large rate: the loss stays a number, and the work reloads', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // The dog's embedding 30 times larger and no scaling: "she" gives "ball" a weight of exactly 0.
  const loud = await state(page);
  loud.embedding = loud.embedding.map((row) => row.map((x) => x * 30));
  loud.scale = 'none';
  assert.equal(await page.evaluate((s) => window.attentionExplorer.load(s), loud), null);
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace().heads[0].weights[6][4]), 0);
  await showLab(page, 'lab-train');
  // The target starts at the key "she" looks at second most: one of the weights of exactly 0.
  assert.equal(Number(await stat(page, 'target_weight')), 0);
  // −ln of the weight, from the scores: a large number, not ∞.
  const loss = Number(await stat(page, 'loss'));
  assert.ok(Number.isFinite(loss) && loss > 100, `loss ${loss}`);
  await page.selectOption('[data-control="train-optimizer"]', 'sgd');
  await page.fill('[data-control="train-lr"]', '10');
  for (let k = 0; k < 3; k += 1) await page.click('[data-action="train-step"]');
  // Each step is taken, or refused with what happened and what to do.
  const refused = await page.$('[data-stat="train_refused"]');
  if (refused) assert.match(await refused.textContent(), /^Step not taken: .* past ±1e6\. Lower the learning rate/);
  const after = await state(page);
  assert.ok(allNumbers(after).every((x) => Number.isFinite(x) && Math.abs(x) <= 1e6), 'every number within the limits');
  assert.ok(!/\binf\b|NaN/.test(await page.textContent('#lab-train')), 'no inf or NaN in the lab');
  // The saved work reopens as it was.
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.deepEqual(await state(page), after);
  assert.equal(await page.$('.load-message'), null, 'no message that the work could not be read');
});

test('train() from a script: a step past the limits is refused whole, and one call cannot freeze the page', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const before = await state(page);
  const objective = { attend: [{ head: 0, query: 6, key: 4 }] };
  const said = await page.evaluate((o) => window.attentionExplorer.train({ objective: o, steps: 5, optimizer: 'sgd', lr: 1e9 }), objective);
  assert.match(said, /^Step not taken: \w+ (of head 1 )?would hold .* past ±1e6\. Lower the learning rate, or start from other numbers\. The 0 steps before it were taken\.$/);
  assert.deepEqual(await state(page), before, 'nothing changed');
  assert.equal(await page.getAttribute('[data-action="undo"]', 'disabled'), '', 'no undo step');
  // At 32 tokens and 8 heads of 64, one call takes at most 357 steps (about two seconds).
  await seededState(page, 32, { d_in: 64, d_k: 64, d_v: 64, heads: 8 });
  const tooMany = await page.evaluate((o) => window.attentionExplorer.train({ objective: o, steps: 1000 }), objective);
  assert.match(tooMany, /^steps must be a whole number from 0 to 357 at this model's size/);
});

/** A link of the dog with one embedding number changed (the maker's links carry their model),
 * with `exercises` in its query. */
async function exerciseLink(page, exercises) {
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('embedding', 0, 0, 0, 1.5)), null);
  await linkSettled(page);
  return `${env.base}?${exercises}${await page.evaluate(() => location.hash)}`;
}

test('under an exercise\'s lock, Reset and Restore your last work say why they did nothing', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const link = await exerciseLink(page, 'goal=weights.0:6,4>=0.5&lock=embedding,w_value');
  // Then work of the learner's own, saved in this browser.
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('embedding', 0, 2, 1, -3)), null);
  await linkSettled(page);
  const work = await state(page);
  await page.goto(link);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  const opened = await state(page);
  assert.notDeepEqual(opened, work);
  // Reset would open the example, whose embedding differs: refused, and said beside the button.
  await page.click('.edit-bar [data-action="reset"]');
  assert.match(await page.textContent('[data-stat="reset-refused"]'), /^Not reset: embedding is locked in this exercise: reach it by editing w_query, w_key\.$/);
  assert.deepEqual(await state(page), opened);
  // The saved work is offered back; restoring it would change the embedding: refused, said.
  await page.click('[data-action="restore"]');
  assert.match(await page.textContent('[data-stat="work-refused"]'), /^Not restored: embedding is locked in this exercise: .*It stays saved\.$/);
  assert.deepEqual(await state(page), opened);
});

test('one edit that meets two goals posts a result for each; undo with nothing to undo is no edit', async () => {
  const goals = 'goal=weights.0:6,4>=0.5;weights.0:6,1<=0.5';
  const { course } = await sandboxedPage(env, `${env.base}?preset=dog&embed=1&steps=weights&${goals}`);
  await course.evaluate(() => {
    window.received = [];
    addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:result' && e.data.exercise) window.received.push(e.data); });
  });
  await course.frameLocator('iframe').locator('[data-matrix="weights"]').first().waitFor();
  const inside = course.frames()[1];
  await inside.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  // Undo and redo with nothing to take back (Ctrl+Z outside a field), and a number set to
  // itself: no edit, so the goals below are met in one.
  await inside.evaluate(() => {
    const x = window.attentionExplorer.state().heads[0].w_query[0][0];
    window.attentionExplorer.edit('w_query', 0, 0, 0, x);
  });
  await inside.locator('h2').first().click();
  await course.keyboard.press('Control+z');
  await course.keyboard.press('Control+Shift+z');
  assert.equal(await inside.locator('[data-action="undo"]').isDisabled(), true);
  const post = (message) => course.evaluate((m) => document.querySelector('iframe').contentWindow.postMessage(m, '*'), message);
  // One load meets both: "she" to "ball" at least 0.5, so to "dog" at most 0.5.
  const next = await inside.evaluate(() => {
    const s = window.attentionExplorer.state();
    s.heads[0].w_query[1][0] = 5;
    s.heads[0].w_query[1][1] = -5;
    return s;
  });
  await post({ type: 'attention-explorer:load', state: next, id: 1 });
  await course.waitForFunction(() => window.received.length >= 2);
  const received = await course.evaluate(() => window.received);
  assert.deepEqual(received.map((m) => [m.exercise, m.correct, m.attempts]), [
    ['weights.0:6,4>=0.5', true, 1],
    ['weights.0:6,1<=0.5', true, 1],
  ]);
});
