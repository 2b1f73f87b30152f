// End-to-end: the √dₖ and masking labs, the heads picture and the guided walk, in the built page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, openLab, stat, labMatrix } from './harness.mjs';

const env = useBrowser();

/**
 * The core's figures with the default sample (seed 1), copied from `E2E_EXPECTED` in
 * tests/labs.rs, which asserts them against `core::sqrt_dk` natively: [variance, largest weight, entropy].
 */
const EXPECTED = {
  64: {
    none: [63.40223635752947, 0.8273058497580112, 0.4004172772819463],
    sqrt_dk: [0.9906599430863979, 0.2596204130794796, 2.3333250640260124],
    dk: [0.015479061610724968, 0.0779792965720033, 2.765461073152437],
  },
  256: {
    none: [253.74791801178267, 0.9178080321454051, 0.20744108807992934],
    sqrt_dk: [0.9912028047335261, 0.2492238257841208, 2.358441220552268],
    dk: [0.003871885955990336, 0.06964231595044065, 2.770861368744244],
  },
};

/** Every figure of the √dₖ lab equals the core's, to the last bits a browser's libm may change. */
async function assertFigures(page, dk) {
  for (const [choice, values] of Object.entries(EXPECTED[dk])) {
    const names = [`var_${choice}`, `max_weight_${choice}`, `entropy_${choice}`];
    for (const [i, name] of names.entries()) {
      const got = Number(await stat(page, name));
      assert.ok(Math.abs(got - values[i]) <= 1e-12 * Math.abs(values[i]), `d_k ${dk}, ${name}: page ${got}, core ${values[i]}`);
    }
  }
}

test('√dₖ lab: the slider and the number field move dₖ, and every figure equals the core', async () => {
  const { page, errors } = await openLab(env.browser, `${env.base}?preset=dog`, 'lab-sqrt-dk');
  assert.equal(await page.inputValue('[data-control="lab_dk"]'), '64');
  assert.equal(await page.inputValue('[data-control="lab_seed"]'), '1');
  await assertFigures(page, 64);
  assert.equal(Number(await stat(page, 'theory_none')), 64);
  assert.equal(Number(await stat(page, 'theory_sqrt_dk')), 1);
  assert.equal(Number(await stat(page, 'theory_dk')), 1 / 64);

  // An arrow key moves to the next power of two: 64 → 128 → 256.
  await page.focus('[data-control="lab_dk_slider"]');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-control="lab_dk"]').value === '256');
  await assertFigures(page, 256);
  assert.match(await page.textContent('#lab-sqrt-dk .current-label'), /dₖ = 256/);

  // A wrong dₖ is flagged beside the field and the last good one stays in use.
  for (const [bad, message] of [['0', /“0” is out of range: use a whole number from 1 to 1024; still using 256/], ['2000', /out of range/], ['3.5', /not a whole number/], ['', /empty: use a whole number/]]) {
    await page.fill('[data-control="lab_dk"]', bad);
    assert.equal(await page.getAttribute('[data-control="lab_dk"]', 'aria-invalid'), 'true', bad);
    assert.match(await page.textContent('#lab_dk-error'), message);
    await assertFigures(page, 256);
  }
  await page.fill('[data-control="lab_dk"]', '64');
  assert.equal(await page.getAttribute('[data-control="lab_dk"]', 'aria-invalid'), null);
  await assertFigures(page, 64);
  await page.focus('[data-control="lab_dk_slider"]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-control="lab_dk"]').value === '1024');
  assert.ok(Number(await stat(page, 'max_weight_none')) > 0.9, 'unscaled saturates at d_k = 1024');
  assert.ok(Math.abs(Number(await stat(page, 'var_sqrt_dk')) - 1) < 0.1);

  // Another seed, another sample; a bad seed keeps the last one.
  await page.fill('[data-control="lab_seed"]', '-1');
  assert.equal(await page.getAttribute('[data-control="lab_seed"]', 'aria-invalid'), 'true');
  const before = await stat(page, 'var_none');
  await page.fill('[data-control="lab_seed"]', '7');
  await page.waitForFunction((b) => document.querySelector('[data-stat="var_none"]').dataset.value !== b, before);
  assert.ok(Math.abs(Number(await stat(page, 'var_sqrt_dk')) - 1) < 0.1);
  assert.deepEqual(errors, []);
});

test('masking lab: raising the magnitude breaks renormalising at 10³, −∞ stays exact', async () => {
  const { page, errors } = await openLab(env.browser, `${env.base}?preset=dog`, 'lab-sqrt-dk');
  assert.equal(await stat(page, 'renormalized_ok'), 'true');
  assert.ok(Number(await stat(page, 'mask_diff')) < 1e-12);
  await page.focus('[data-control="lab_magnitude"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('[data-control="lab_magnitude"]'), '2');
  assert.equal(await stat(page, 'renormalized_ok'), 'true');
  assert.equal(await page.locator('#lab-mask td[data-fails]').count(), 0);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-stat="renormalized_ok"]').dataset.value === 'false');
  assert.equal(await stat(page, 'mask_diff'), 'NaN');
  const failing = await page.locator('table[data-lab-matrix="renormalized"] td[data-fails="true"]').count();
  assert.ok(failing > 0);
  assert.match(await page.textContent('[data-stat="renormalized_ok"]'), new RegExp(`no, ${failing} cells differ`));
  // −∞ still gives rows that sum to 1 and nothing to the future.
  const rows = await labMatrix(page, 'neg_inf');
  rows.forEach((row, i) => {
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12, `row ${i}`);
    assert.ok(row.slice(i + 1).every((w) => w === 0), `row ${i} future`);
  });
  assert.deepEqual(errors, []);
});

test('heads: the concatenation shows its shapes and each head its own most-attended key', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka-multihead`);
  assert.deepEqual(await page.$$eval('#step-output .concat .shape', (s) => s.map((e) => e.textContent)), ['6 × 1', '6 × 1', '6 × 1', '6 × 1', '6 × 4']);
  await page.click('.token:has-text("short")');
  assert.equal(await page.getAttribute('.heads-picks', 'data-heads-query'), '2');
  assert.match(await page.textContent('.heads-picks'), /^Token “short” attends most to: head 0 → .*head 3 → /);
  assert.deepEqual(errors, []);
});

/** The ids of the walk's stops with one head, in teaching order: the lesson (the weights by
 * the fifth stop, the context sixth, then why ÷√dₖ and −∞, then training), then further. */
const STOPS = ['step-sentence', 'step-embedding', 'step-qkv', 'step-scores', 'step-weights', 'step-context', 'step-scale',
  'lab-sqrt-dk', 'step-mask', 'lab-mask', 'lab-heads', 'lab-train', 'step-projections', 'lab-order', 'lab-kv-cache', 'lab-flash'];
/** The lesson's stops: the rest are one choice away ("Go further"). */
const LESSON = 12;

const current = (page) => page.$$eval('[aria-current="step"]', (els) => els.map((e) => e.id));

async function assertAt(page, i, total = STOPS.length) {
  await page.waitForFunction((id) => document.querySelector(`#${id}`)?.getAttribute('aria-current') === 'step', STOPS[i]);
  assert.deepEqual(await current(page), [STOPS[i]]);
  assert.match(await page.textContent('.walk-where'), new RegExp(`^${i + 1} of ${total} · `));
  assert.ok((await page.textContent('.walk-hint')).length > 20);
  // Scrolled into view: the section's top is on screen once the sections around it have
  // rendered (the page keeps it there while they move it, scroll.rs).
  const onScreen = (id) => { const top = document.getElementById(id).getBoundingClientRect().top; return top >= -1 && top < 900; };
  await page.waitForFunction(onScreen, STOPS[i], { timeout: 3000 }).catch(() => {});
  const top = await page.$eval(`#${STOPS[i]}`, (e) => e.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 900, `${STOPS[i]} top at ${top}`);
}

test('the guided walk, forwards and back with the keyboard, then Esc', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  assert.ok(await page.isHidden('.walk'));
  await page.focus('[data-action="walk-start"]');
  await page.keyboard.press('Enter');
  await assertAt(page, 0);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'walk-next');
  assert.equal(await page.getAttribute('[data-action="walk-prev"]', 'aria-disabled'), 'true');
  // Screen readers hear each move (a polite live region) and the hint when Next is focused.
  assert.equal(await page.getAttribute('#walk-status', 'aria-live'), 'polite');
  assert.equal(await page.getAttribute('[data-action="walk-next"]', 'aria-describedby'), 'walk-status');
  for (let i = 1; i < LESSON; i++) {
    await page.keyboard.press('Enter');
    await assertAt(page, i);
  }
  // The lesson's end tells the story from the numbers and offers to go further.
  assert.equal(await page.textContent('[data-action="walk-next"]'), 'Finish');
  assert.match(await page.textContent('[data-stat="walk-story"]'), /^“she” pays 88\.3% of its attention to “dog”/);
  assert.match(await page.textContent('.walk-summary'), /^That is self-attention/);
  await page.click('[data-action="walk-further"]');
  await assertAt(page, LESSON);
  assert.match(await page.textContent('.walk-where'), / · further$/);
  await page.focus('[data-action="walk-next"]');
  for (let i = LESSON + 1; i < STOPS.length; i++) {
    await page.keyboard.press('Enter');
    await assertAt(page, i);
  }
  // The last stop says what was seen and where to go; Next has become Finish.
  assert.match(await page.textContent('.walk-summary'), /Where next: type a sentence of your own/);
  assert.equal(await page.textContent('[data-action="walk-next"]'), 'Finish');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'walk-prev');
  for (let i = STOPS.length - 2; i >= 0; i--) {
    await page.keyboard.press('Enter');
    await assertAt(page, i);
  }
  await page.keyboard.press('Escape');
  await page.waitForSelector('.walk', { state: 'hidden' });
  assert.deepEqual(await current(page), []);
  await page.waitForFunction(() => document.activeElement?.dataset.action === 'walk-start');
  // Esc kept the place, the first stop: Start begins there (a later stop is resumed, lesson.test.mjs).
  assert.match(await page.textContent('[data-action="walk-start"]'), /^Start the lesson/);
  // Finish at the lesson's end ends the walk, and Start then begins again.
  await page.keyboard.press('Enter');
  for (let i = 1; i < LESSON; i++) await page.click('[data-action="walk-next"]');
  await page.click('[data-action="walk-next"]');
  await page.waitForSelector('.walk', { state: 'hidden' });
  assert.match(await page.textContent('[data-action="walk-start"]'), /^Start the lesson/);
  assert.deepEqual(errors, []);
});

test('?walk=1 opens in the walk; with several heads it ends at the output, and End leaves', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka-multihead&walk=1`);
  // Several heads come in the lesson, before training.
  const stops = [...STOPS.slice(0, LESSON - 1), 'step-output'];
  await page.waitForFunction(() => document.querySelector('#step-sentence').getAttribute('aria-current') === 'step');
  assert.match(await page.textContent('.walk-where'), /^1 of 17 · Sentence → tokens/, 'one numbering: the walk\'s');
  for (let i = 1; i < stops.length; i++) await page.click('[data-action="walk-next"]');
  await page.waitForFunction(() => document.querySelector('#step-output').getAttribute('aria-current') === 'step');
  await page.click('[data-action="walk-end"]');
  await page.waitForSelector('.walk', { state: 'hidden' });
  assert.deepEqual(await current(page), []);
  assert.deepEqual(errors, []);
});

test('the heads\' concatenation fits its box at any width, each head labelled (16 columns a head, on a desktop and a phone)', async () => {
  // Found as a learner: from d_v 16 the boxes were thousands of pixels wide, cut at the edge,
  // with no labels.
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page } = await open(env.browser, `${env.base}?preset=raschka-multihead`, viewport);
    await page.fill('[data-control="d_v"]', '16');
    await page.fill('[data-control="heads"]', '4');
    await page.$eval('#step-output', (s) => s.scrollIntoView());
    await page.waitForFunction(() => document.querySelectorAll('#step-output .concat-block').length === 5);
    const boxes = await page.$$eval('#step-output .concat-block', (all) => all.map((b) => {
      const box = b.getBoundingClientRect();
      const inside = [...b.children].every((c) => { const r = c.getBoundingClientRect(); return r.left >= box.left - 0.5 && r.right <= box.right + 0.5; });
      return { right: box.right, width: box.width, text: b.textContent, inside };
    }));
    const room = await page.$eval('#step-output .concat', (c) => c.getBoundingClientRect().right);
    for (const b of boxes) {
      assert.ok(b.right <= room + 0.5, `${b.text} ends at ${b.right}, past ${room}`);
      assert.ok(b.inside, `${b.text}: its labels fit`);
    }
    assert.deepEqual(boxes.map((b) => b.text), ['head 06 × 16', 'head 16 × 16', 'head 26 × 16', 'head 36 × 16', 'output6 × 64']);
    // The output is as wide as the heads together.
    assert.ok(boxes[4].width >= boxes.slice(0, 4).reduce((s, b) => s + b.width, 0), 'the output spans the heads');
  }
});
