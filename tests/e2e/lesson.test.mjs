// End-to-end: the first lesson (issue 46) as a newcomer meets it: what attention is for and its
// result on the first screen, the story told from the numbers as they change, the walk in
// teaching order on a phone (its controls reachable, End keeping the place), and sentences true
// for the numbers beside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, output, picture, cellSelector, settled, showLab, stat, eventually, DESKTOP, PHONE } from './harness.mjs';

const env = useBrowser();

/** What a visitor can operate on the screen as it is: controls in view, not folded away. */
const controlsInView = (page) => page.evaluate(() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
  .filter((e) => {
    const r = e.getBoundingClientRect();
    return e.checkVisibility({ checkVisibilityCSS: true }) && !e.disabled && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  })
  .map((e) => e.dataset.action ?? e.dataset.control ?? e.textContent.trim().slice(0, 24)));

/** Whether `selector`'s box is wholly on the first screen. */
const onScreen = (page, selector) => page.$eval(selector, (e) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
});

test('the opening says what attention is for and shows “she” → “dog” 0.883 on the first screen, with few controls', async () => {
  for (const [viewport, device, most] of [[DESKTOP, 'desktop', 15], [PHONE, 'phone', 10]]) {
    for (const scheme of ['light', 'dark']) {
      const { page } = await open(env.browser, `${env.base}?theme=${scheme}`, viewport, undefined, { folded: true });
      assert.match(await page.textContent('[data-stat="what-for"]'), /A word's meaning depends on the words around it.*“she” has to find whom she means.*language models/);
      assert.ok(await onScreen(page, '[data-stat="what-for"]'), `${device}: what attention is for is on the first screen`);
      assert.equal(await page.textContent('[data-stat="opening-look"]'), 'Where “she” looks, most to “dog” (0.8830)');
      assert.ok(await onScreen(page, '[data-stat="opening-look"]'), `${device}: the result is on the first screen`);
      assert.ok(await onScreen(page, 'svg[data-view="opening-lines"] line[data-key="1"]'), `${device}: the line from “she” to “dog”`);
      const controls = await controlsInView(page);
      assert.ok(controls.length <= most, `${device}: ${controls.length} controls on the first screen: ${controls.join(', ')}`);
      // The settings are one click away.
      assert.equal(await page.isVisible('[data-control="d_k"]'), false);
      await page.click('[data-action="settings"]');
      assert.ok(await page.isVisible('[data-control="d_k"]'));
    }
  }
});

test('a link that asks for a model of its own opens the settings', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`, DESKTOP, undefined, { folded: true });
  await page.fill(`${cellSelector('w_query', 0, 0)} input`, '2');
  await page.waitForFunction(() => location.hash.length > 10);
  const { page: again } = await open(env.browser, page.url(), DESKTOP, undefined, { folded: true });
  assert.ok(await again.isVisible('[data-control="d_k"]'), 'the settings are open');
});

test('the story follows an edit, says when the hand-made story no longer holds, and Undo brings it back', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const story = () => page.textContent('.payoff [data-stat="story"]');
  assert.equal(await story(), '“she” pays 88.3% of its attention to “dog”: its query matches that key best (score 13.8 against 9.8 for “ball”, the runner-up), and the softmax turns the gap, 2.3 once scaled, into weights of 0.8830 and 0.0870; so its new vector (its context) is mostly the value of “dog”.');
  // The dog's embedding columns say what they encode.
  assert.deepEqual(await page.$$eval('table[data-matrix="embedding"] thead th', (t) => t.map((e) => e.textContent.trim()).filter(Boolean)), ['thing', 'alive']);
  // dog becomes the opposite of alive: she looks elsewhere, and the page says the story is broken.
  await page.fill(`${cellSelector('embedding', 3, 1, null)} input`, '-1');
  await page.keyboard.press('Enter');
  const broken = await eventually(story, (s) => /your edits changed that/.test(s));
  assert.match(broken, /^“she” pays [\d.]+% of its attention to “(?!dog)[^”]+”/);
  assert.match(broken, /In the hand-made example “she” looked most at “dog” \(0\.883\): your edits changed that\. Undo or Reset brings it back\.$/);
  assert.match(await page.textContent('#step-context [data-stat="blend"]'), /^Here “she” pays/);
  await page.click('[data-action="undo"]');
  assert.match(await eventually(story, (s) => s.startsWith('“she” pays 88.3%')), /mostly the value of “dog”\.$/);
});

test('a typed word says it is untaught, and can be given a hand-made word\'s numbers', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="sentence"]', 'The cat fetched the ball and she was happy');
  await page.waitForSelector('[data-note="untaught"][data-word="cat"]');
  assert.match(await page.textContent('[data-note="untaught"]'), /“cat” is new here: its numbers are random, since nothing has taught it anything/);
  await page.selectOption('[data-control="untaught-row"]', 'dog');
  await page.waitForSelector('[data-note="untaught"]', { state: 'detached' });
  assert.match(await page.textContent('.payoff [data-stat="story"]'), /^“she” pays 88\.3% of its attention to “cat”/);
  // The tokens are numbered one way: the chips say their id, the Following select the word.
  assert.equal(await page.textContent('[data-token="1"] .token-id'), 'id 3');
  assert.equal(await page.textContent('[data-control="follow"] option[value="6"]'), '“she”');
  await page.fill('[data-control="sentence"]', 'the cat saw the dog');
  assert.deepEqual(await page.$$eval('[data-control="follow"] option', (o) => o.map((e) => e.textContent)), ['“the” (1st)', '“cat”', '“saw”', '“the” (2nd)', '“dog”']);
});

test('raising d_k says the new numbers are random and what moved', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.fill('[data-control="d_k"]', '4');
  await page.press('[data-control="d_k"]', 'Enter');
  const note = await page.waitForSelector('[data-note="resized"]');
  assert.match(await note.textContent(), /^The new places got random numbers drawn from the seed; the numbers already there are kept\. The followed token's largest weight moved: “dog” 0\.883 → “dog” 0\.\d{3}\. Undo takes it back\.$/);
  await page.click('[data-action="undo"]');
  await page.waitForSelector('[data-note="resized"]', { state: 'detached' });
});

test('every sentence is true for its numbers: the scaling, the mask\'s hint, the KV cache, the training curve', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // The formula names the divisor whatever the scaling.
  await page.selectOption('[data-control="scale"]', 'none');
  assert.match(await page.textContent('#step-scale .formula'), /divisor √d_k \(the standard\), d_k or 1 \(none\)/);
  assert.match(await page.textContent('#step-scale .note'), /^Now dividing by 1/);
  await page.selectOption('[data-control="scale"]', 'sqrt_dk');
  // The scaling's words do not promise a spread of 1 for numbers that are not like that.
  assert.match(await page.textContent('#step-scale .explain'), /This page's numbers need not be like that/);
  // The mask's card names the row it asks to watch, and where to watch it.
  await page.click('[data-action="walk-start"]');
  while (!(await page.textContent('.walk-where')).includes('Causal mask')) await page.click('[data-action="walk-next"]');
  const hint = await page.textContent('.walk-hint');
  assert.doesNotMatch(hint, /row 1/);
  assert.match(hint, /in the weights \(the next step\) every token may now look at the tokens after it too/);
  await page.click('[data-action="walk-end"]');
  // The order lab says its positions change the page's model, as they do.
  await showLab(page, 'lab-order');
  assert.match(await page.textContent('#lab-order'), /the positions below are the page's own, so choosing them changes every step above/);
  // The first decoded token has nothing cached: not "1× fewer".
  await showLab(page, 'lab-kv-cache');
  assert.doesNotMatch(await page.textContent('#lab-kv-cache'), /1× fewer/);
  // Two steps of training, then Undo: the curve of numbers no longer on the page goes.
  await showLab(page, 'lab-train');
  assert.doesNotMatch(await page.textContent('#lab-train'), /The tutorial's hand-made weights/);
  await page.click('[data-action="train-step"]');
  await page.click('[data-action="train-step"]');
  assert.equal(await stat(page, 'train_steps'), '2');
  await page.click('[data-action="undo"]');
  await page.click('[data-action="undo"]');
  await page.waitForSelector('[data-stat="train_steps"]', { state: 'hidden' });
  // Raschka's model is random: the dog's words are not said of it.
  const { page: raschka } = await open(env.browser, `${env.base}?preset=raschka`);
  await showLab(raschka, 'lab-train');
  assert.doesNotMatch(await raschka.textContent('#lab-train'), /The dog example's hand-made weights/);
  assert.match(await raschka.textContent('header.intro'), /these are random, as a model's are before training/);
});

test('the heads lab shows two heads attending for two reasons, and opens them in the page', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await showLab(page, 'lab-heads');
  assert.equal(Number(await stat(page, 'heads_lab')).toFixed(3), '0.808');
  await page.click('[data-action="open-two-heads"]');
  await page.waitForSelector('#step-output');
  const weights = (await page.evaluate(() => window.attentionExplorer.trace())).heads.map((h) => h.weights[6]);
  assert.equal(weights[0][1].toFixed(3), '0.883');
  assert.equal(weights[1][4].toFixed(3), '0.808');
  await page.click('[data-action="undo"]');
  await page.waitForSelector('#step-output', { state: 'detached' });
});

test('on a phone the walk never covers what a stop asks for, End keeps the place, Start resumes, breakdowns wrap', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&walk=1`, PHONE);
  const where = () => page.textContent('.walk-where');
  // The weights by the fifth stop.
  for (let i = 1; i < 5; i++) await page.click('[data-action="walk-next"]');
  assert.match(await where(), /^5 of 16 · Attention weights \(softmax\)/);
  await settled(page);
  await picture(page, output('lesson-walk-softmax-phone.png'));
  // At the scaling and the mask the controls they ask for can be tapped (not under the card).
  for (let i = 5; i < 7; i++) await page.click('[data-action="walk-next"]');
  assert.match(await where(), /^7 of 16 · Scaling by √dₖ/);
  await settled(page);
  await page.selectOption('[data-control="scale"]', 'none');
  const tapped = await page.$eval('[data-control="causal"]', (box) => {
    const r = box.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === box;
  });
  assert.ok(tapped, 'the causal box is not covered');
  await page.click('[data-control="causal"]');
  await page.click('[data-control="causal"]');
  await page.selectOption('[data-control="scale"]', 'sqrt_dk');
  // End keeps the reader where the walk was; Start resumes there.
  const y = await page.evaluate(() => scrollY);
  await page.click('[data-action="walk-end"]');
  await page.waitForSelector('.walk', { state: 'hidden' });
  await settled(page);
  assert.ok(Math.abs((await page.evaluate(() => scrollY)) - y) < 300, 'End did not scroll to the top');
  assert.equal(await page.textContent('[data-action="walk-start"]'), 'Resume the walk at stop 7 of 16');
  await page.click('[data-action="walk-start"]');
  assert.match(await where(), /^7 of 16 · /);
  await page.click('[data-action="walk-end"]');
  // A score's breakdown wraps: its result is on screen.
  await page.click(`${cellSelector('scores', 6, 1)}`);
  const breakdown = await page.waitForSelector('[data-breakdown="score"]');
  await breakdown.scrollIntoViewIfNeeded();
  const fits = await breakdown.evaluate((b) => b.scrollWidth <= b.clientWidth + 1 && b.getBoundingClientRect().right <= innerWidth);
  assert.ok(fits, 'the breakdown is as wide as the screen');
});
