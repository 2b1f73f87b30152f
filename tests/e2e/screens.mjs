// The screenshot scenarios: each drives the page to what it pictures and calls `shot(target, name,
// options)` there. `screenshots.mjs` runs them to save the pictures; `screens.test.mjs` runs them
// with no picture taken and asserts the page is whole (no console error, no page-wide overflow).
// Also the helpers a scenario shares with one test file, which imports them from here.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { open, openLab, showLab, seededState, settled, cellSelector, projectRoot, DESKTOP, PHONE } from './harness.mjs';

export const DEVICES = { desktop: DESKTOP, phone: PHONE };
export const SCHEMES = ['light', 'dark'];

// Exercises (exercise.test.mjs): the dog's she → dog score, and an exercise's card and answer field.
export const SHE_DOG = 'scores.0:6,1';
export const asked = (id) => `[data-answer="${id}"]`;
export const card = (id) => `[data-exercise="${id}"]`;

let big;
/** 64 tokens, d_in 64, d_k = d_v = 16, 8 heads, causal (the size the heat maps were built for),
 * made once by the page itself. */
export async function bigState(env) {
  if (!big) {
    const { page } = await open(env.browser, `${env.base}?preset=raschka`);
    big = await seededState(page, 64, { d_in: 64, d_k: 16, d_v: 16, heads: 8 }, true);
    await page.close();
  }
  return big;
}

/** The page with the 64-token model loaded through the API. */
export async function openBig(env, viewport, colorScheme = 'light') {
  const big = await bigState(env);
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`, viewport);
  await page.emulateMedia({ colorScheme });
  assert.equal(await page.evaluate((s) => window.attentionExplorer.load(s), big), null);
  await page.waitForSelector('canvas[data-matrix="weights"][data-rows="64"]');
  return { page, errors };
}

/** PyTorch's nn.MultiheadAttention modules, with their weights and output (layers.test.mjs). */
export const cases = JSON.parse(await readFile(join(projectRoot, 'tests/fixtures/mha_cases.json'), 'utf8')).cases;

/** A page state with the fixture's sentence and embedding (its words are already in sorted
 * order, one row each) and a placeholder head, for the import to replace. */
export function pageState(torch) {
  const width = torch.embedding[0].length;
  const zeros = Array.from({ length: width }, () => [0]);
  return JSON.stringify({
    version: 1, sentence: torch.sentence, embedding: torch.embedding,
    heads: [{ w_query: zeros, w_key: zeros, w_value: zeros }], causal: torch.causal, scale: 'sqrt_dk',
  });
}

export async function openImport(page) {
  await page.click('[data-action="import-torch"]');
  await page.waitForSelector('[data-control="torch-json"]');
}

/** The dog with d_k = 4, so that RoPE has pairs to turn. */
export async function evenDog(page) {
  await page.fill('[data-control="d_k"]', '4');
  await page.waitForFunction(() => window.attentionExplorer.state().heads[0].w_query[0].length === 4);
}

export async function choose(page, kind) {
  await page.selectOption('[data-control="positions"]', kind);
  await page.waitForFunction((k) => (window.attentionExplorer.state().positions?.kind ?? 'none') === k, kind);
}

/** Each scenario, by the name `screenshots.mjs` takes, as `async (env, { device, viewport,
 * scheme, shot })`. One that returns a page asks for it to be no wider than its screen. */
export const SCENARIOS = {
  /** The whole dog page following “she”. */
  async app(env, { device, viewport, scheme, shot }) {
    const { page } = await open(env.browser, env.base, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.click('.token:has-text("she")');
    // The light pictures keep their names from before there were dark ones.
    await shot(page, scheme === 'light' ? `${device}.png` : `${device}-${scheme}.png`, { fullPage: true });
    return page;
  },

  /** Each kind of exercise (a wrong answer given), and the maker with a cell asked. */
  async exercise(env, { device, viewport, scheme, shot }) {
    const url = `${env.base}?preset=dog&ask=${SHE_DOG}&predict=weights.0:6&goal=weights.0:6,4>=0.5&lock=embedding,w_value&theme=${scheme}`;
    const { page } = await open(env.browser, url, viewport);
    await page.fill(asked(SHE_DOG), '12');
    await page.click(`${card(SHE_DOG)} [data-action="check"]`);
    await shot(page.locator('#step-scores'), `exercise-ask-${device}-${scheme}.png`);
    await shot(page.locator('#step-weights'), `exercise-predict-goal-${device}-${scheme}.png`);
    await page.click('[data-action="author"]');
    await page.click(cellSelector('weights', 5, 1));
    await page.click('[data-action="author-ask"]');
    await shot(page, `exercise-maker-${device}-${scheme}.png`);
  },

  /** The weights of a 64-token model's third head following token 40, and the dog's attention lines. */
  async heatmap(env, { device, viewport, scheme, shot }) {
    const { page } = await openBig(env, viewport, scheme);
    await page.click('[data-action="pick-head"][data-head="2"]');
    await page.locator('svg[data-view="lines"] text.query-token').nth(40).click();
    await shot(page.locator('#step-weights'), `weights-64-${device}-${scheme}.png`);
    const { page: dog } = await open(env.browser, `${env.base}?preset=dog`, viewport);
    await dog.emulateMedia({ colorScheme: scheme });
    await dog.click('.token:has-text("she")');
    await shot(dog.locator('#step-weights'), `lines-dog-${device}-${scheme}.png`);
    return page;
  },

  /** The √dₖ lab, the masking lab past 10³, the walk at the √dₖ lab, and four heads' concatenation. */
  async labs(env, { device, viewport, scheme, shot }) {
    const name = (what) => `labs-${what}-${device}-${scheme}.png`;
    const { page } = await openLab(env.browser, `${env.base}?preset=dog`, 'lab-sqrt-dk', viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await shot(page.locator('#lab-sqrt-dk'), name('sqrt-dk'));
    await page.focus('[data-control="lab_magnitude"]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelector('[data-stat="renormalized_ok"]').dataset.value === 'false');
    await shot(page.locator('#lab-mask'), name('mask'));
    await page.click('[data-action="walk-start"]');
    for (let i = 0; i < 7; i++) await page.click('[data-action="walk-next"]');
    await page.waitForFunction(() => document.querySelector('#lab-sqrt-dk').getAttribute('aria-current') === 'step');
    await shot(page, name('walk'));
    const heads = await open(env.browser, `${env.base}?preset=raschka-multihead`, viewport);
    await heads.page.emulateMedia({ colorScheme: scheme });
    await shot(heads.page.locator('#step-output'), name('heads'));
    return page;
  },

  /** The biases, the output projection (step 11), and the import panel refusing 2 heads. */
  async layers(env, { device, viewport, scheme, shot }) {
    const c = cases[1];
    const name = (what) => `layers-${what}-${device}-${scheme}.png`;
    const { page } = await open(env.browser, `${env.base}?preset=dog`, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.check('[data-control="biases"]');
    await page.check('[data-control="output-projection"]');
    await page.waitForSelector('#step-out_proj table[data-matrix="w_output"]');
    await shot(page.locator('#step-projections'), name('biases'));
    await shot(page.locator('#step-out_proj'), name('out-proj'));
    await page.evaluate((s) => window.attentionExplorer.load(s), pageState(c.torch));
    await openImport(page);
    await page.fill('[data-control="torch-json"]', JSON.stringify(c.torch.state_dict));
    await page.fill('[data-control="torch-heads"]', '2');
    await page.click('[data-action="import-torch-apply"]');
    await page.waitForSelector('#torch-message.field-error');
    await shot(page.locator('.import-torch'), name('import'));
    return page;
  },

  /** Sinusoidal positions, RoPE's positions and rotated queries, and the order lab shuffled. */
  async order(env, { device, viewport, scheme, shot }) {
    const name = (what) => `order-${what}-${device}-${scheme}.png`;
    const { page } = await open(env.browser, `${env.base}?preset=dog`, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await evenDog(page);
    await choose(page, 'sinusoidal');
    await shot(page.locator('#step-positions'), name('sinusoidal'));
    await choose(page, 'rope_half');
    await shot(page.locator('#step-positions'), name('rope'));
    await shot(page.locator('#step-qkv'), name('rope-qkv'));
    await showLab(page, 'lab-order');
    await page.click('[data-action="order-shuffle"]');
    await shot(page.locator('#lab-order'), name('lab'));
    return page;
  },

  /** Grouped-query heads, cross-attention, the KV cache lab three tokens in, a FlashAttention tile. */
  async variants(env, { device, viewport, scheme, shot }) {
    const name = (what) => `variants-${what}-${device}-${scheme}.png`;
    const { page } = await open(env.browser, `${env.base}?preset=raschka-multihead`, viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.fill('[data-control="kv_heads"]', '2');
    await page.waitForFunction(() => window.attentionExplorer.state().kv_heads === 2);
    await shot(page.locator('#step-qkv'), name('grouped'));
    await page.fill('[data-control="source"]', 'the cat sat on the mat');
    await page.waitForFunction(() => window.attentionExplorer.state().source);
    await shot(page.locator('#step-weights'), name('cross'));
    await page.fill('[data-control="source"]', '');
    await page.check('[data-control="causal"]');
    await showLab(page, 'lab-kv-cache');
    for (let i = 0; i < 3; i++) await page.click('[data-action="decode-step"]');
    await shot(page.locator('#lab-kv-cache'), name('kv-cache'));
    await showLab(page, 'lab-flash');
    await page.click('[data-action="flash-step"]');
    await shot(page.locator('#lab-flash'), name('flash'));
    return page;
  },

  /** The first screen, the settings folded, as a newcomer meets it. */
  async 'lesson-opening'(env, { device, viewport, scheme, shot }) {
    const { page } = await open(env.browser, `${env.base}?theme=${scheme}`, viewport, undefined, { folded: true });
    await shot(page, `lesson-opening-${device}-${scheme}.png`, { everyStep: false });
  },

  /** Each of the walk's 16 stops, the lesson's and further, as the screen shows it. */
  async 'lesson-walk'(env, { device, viewport, scheme, shot }) {
    const { page } = await open(env.browser, `${env.base}?preset=dog&walk=1&theme=${scheme}`, viewport);
    for (let i = 0; i < 16; i++) {
      await settled(page);
      await shot(page, `lesson-walk-${String(i + 1).padStart(2, '0')}-${device}-${scheme}.png`, { everyStep: false });
      const further = await page.isVisible('[data-action="walk-further"]');
      await page.click(further ? '[data-action="walk-further"]' : '[data-action="walk-next"]');
    }
    await page.waitForSelector('.walk', { state: 'hidden' });
  },
};
