// `node tests/e2e/train_run.mjs [STEPS]` (after `trunk build --release`): the training lab's Run
// at 64 tokens × 8 heads (d_in 64, d_k = d_v = 16). It presses Run again each time a Run ends
// (400 steps each) until STEPS (default 10 000) steps, and prints the steps per second and the
// frames per step of the first Run, the longest frame while it runs (a click waits at most that
// long), and the wasm memory (`attentionExplorer.memoryBytes()`) after step 1 000 and at the end.
// A measurement, not a test.
import { startServer, launch, seededState } from './harness.mjs';

const total = Number(process.argv[2] ?? 10_000);
const { server, base } = await startServer();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${base}?preset=raschka`);
await page.waitForSelector('[data-matrix="weights"]');
await seededState(page, 64, { d_in: 64, d_k: 16, d_v: 16, heads: 8 });
await page.$eval('#lab-train', (s) => s.scrollIntoView());
await page.waitForSelector('[data-action="train-run"]');

const steps = () => page.$eval('[data-stat="train_steps"]', (e) => Number(e.textContent));
/** Presses Run and waits for it to end; the frames and the longest frame meanwhile. */
const run = () => page.evaluate(() => new Promise((resolve) => {
  const button = document.querySelector('[data-action="train-run"]');
  let frames = 0, longest = 0, last = performance.now();
  const start = last;
  const frame = (now) => {
    frames += 1;
    longest = Math.max(longest, now - last);
    last = now;
    if (button.getAttribute('aria-pressed') === 'true') requestAnimationFrame(frame);
    else resolve({ frames, longest, ms: now - start });
  };
  button.click();
  requestAnimationFrame(frame);
}));

let done = 0, first = null, at1000 = null;
while (done < total) {
  const r = await run();
  const now = await steps();
  if (!first) first = { ...r, steps: now };
  done += now;
  if (!at1000 && done >= 1000) at1000 = await page.evaluate(() => window.attentionExplorer.memoryBytes());
}
const end = await page.evaluate(() => window.attentionExplorer.memoryBytes());
const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
console.log(`first Run: ${first.steps} steps in ${first.ms.toFixed(0)} ms = ${(first.steps / first.ms * 1000).toFixed(1)} steps/s, ${(first.frames / first.steps).toFixed(2)} frames per step, longest frame ${first.longest.toFixed(1)} ms`);
console.log(`wasm memory after ${1000} steps ${mb(at1000)}, after ${done} ${mb(end)} (${((end / at1000 - 1) * 100).toFixed(1)} %)`);
await browser.close();
server.close();
