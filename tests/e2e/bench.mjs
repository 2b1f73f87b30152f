// `node tests/e2e/bench.mjs` (after `trunk build --release`): how long the built page takes to open
// a model and to bring every table up to date after one typed number. A measurement, not a test.
import { startServer, launch, cellSelector } from './harness.mjs';

/** A seeded state of the given size, made by the core's own code via the page's share link. */
async function stateLink(page, base, sentenceLength, dims) {
  await page.goto(`${base}?preset=raschka`);
  await page.waitForSelector('table[data-matrix="weights"]');
  const sentence = Array.from({ length: sentenceLength }, (_, i) => `w${i}`).join(' ');
  await page.fill('[data-control="sentence"]', sentence);
  for (const [control, value] of Object.entries(dims)) await page.fill(`[data-control="${control}"]`, String(value));
  await page.click('summary:has-text("Save, load or share")');
  return page.inputValue('[data-control="link"]');
}

/** Milliseconds from an input event in head 0's W_query[0][0] until its last context cell has changed
 * (Leptos updates every table in one synchronous flush). */
async function editLatency(page, rows, cols) {
  return page.evaluate(async ({ input, watched }) => {
    const el = document.querySelector(input);
    const target = document.querySelector(watched);
    const times = [];
    for (let k = 0; k < 10; k++) {
      const before = target.dataset.value;
      const changed = new Promise((resolve) => {
        const observer = new MutationObserver(() => { if (target.dataset.value !== before) { observer.disconnect(); resolve(); } });
        observer.observe(target, { attributes: true });
      });
      const start = performance.now();
      el.focus();
      el.value = String(0.1 + k * 0.05);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await changed;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  }, { input: `${cellSelector('w_query', 0, 0)} input`, watched: cellSelector('context', rows - 1, cols - 1) });
}

const { server, base } = await startServer();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cases = [
  ['dog (9 tokens, 1 head)', `${base}?preset=dog`, 9, 3],
  ['raschka-multihead (6 tokens, 4 heads)', `${base}?preset=raschka-multihead`, 6, 1],
];
cases.push(['16 tokens, 4 heads, d 16', await stateLink(page, base, 16, { d_in: 16, d_k: 16, d_v: 16, heads: 4 }), 16, 16]);
cases.push(['32 tokens, 2 heads, d 8', await stateLink(page, base, 32, { d_in: 8, d_k: 8, d_v: 8, heads: 2 }), 32, 8]);
for (const [name, url, rows, cols] of cases) {
  // A fresh load each time: a link differing only in its fragment would not reload the page.
  await page.goto('about:blank');
  const start = Date.now();
  await page.goto(url);
  await page.waitForSelector(cellSelector('context', rows - 1, cols - 1));
  const open = Date.now() - start;
  const cells = await page.locator('td').count();
  const edit = await editLatency(page, rows, cols);
  console.log(`${name.padEnd(40)} open ${String(open).padStart(5)} ms   ${String(cells).padStart(6)} cells   edit → tables updated ${edit.toFixed(1).padStart(7)} ms (median of 10)`);
}
await browser.close();
server.close();
