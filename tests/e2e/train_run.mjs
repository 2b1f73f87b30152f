// `node tests/e2e/train_run.mjs [STEPS]` (after `bash .ci/build.sh`): the training lab's Run
// at 64 tokens × 8 heads (d_in 64, d_k = d_v = 16), STEPS steps (default 10 000, where a Run
// pauses itself). It prints the steps per second, the frames per step and the longest frame
// (a click waits at most that long), and the wasm memory (`attentionExplorer.memoryBytes()`)
// after step 1 000 and at the end. A measurement, not a test.
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

const result = await page.evaluate((total) => new Promise((resolve) => {
  const button = document.querySelector('[data-action="train-run"]');
  const steps = () => Number(document.querySelector('[data-stat="train_steps"]').textContent);
  let frames = 0, longest = 0, at1000 = null, last = performance.now();
  const start = last;
  const frame = (now) => {
    frames += 1;
    if (frames > 1) longest = Math.max(longest, now - last);
    last = now;
    if (at1000 === null && steps() >= 1000) at1000 = window.attentionExplorer.memoryBytes();
    if (steps() >= total && button.getAttribute('aria-pressed') === 'true') button.click();
    if (button.getAttribute('aria-pressed') === 'true') requestAnimationFrame(frame);
    else resolve({ frames, longest, ms: now - start, steps: steps(), at1000, end: window.attentionExplorer.memoryBytes() });
  };
  button.click();
  requestAnimationFrame(frame);
}), total);
const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
console.log(`Run: ${result.steps} steps in ${(result.ms / 1000).toFixed(1)} s = ${(result.steps / result.ms * 1000).toFixed(1)} steps/s, ${(result.frames / result.steps).toFixed(2)} frames per step, longest frame ${result.longest.toFixed(1)} ms`);
console.log(`wasm memory after 1 000 steps ${mb(result.at1000)}, after ${result.steps} ${mb(result.end)} (${((result.end / result.at1000 - 1) * 100).toFixed(1)} %)`);
await browser.close();
server.close();
