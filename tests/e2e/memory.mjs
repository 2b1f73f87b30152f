// `node tests/e2e/memory.mjs [EDITS] [--cpu-slowdown N]` (after `trunk build --release`): does
// memory stay flat over a long editing session, also on a slow machine (Chrome's CPU throttling,
// N times slower: edits then come faster than frames)? At the limits (64 tokens, 16 heads,
// d_in = d_k = d_v = 128) it makes
// EDITS (default 1 000) scripted edits, each of a different cell and each followed by a painted
// frame, and prints the wasm module's memory (`attentionExplorer.memoryBytes()`) and the JS heap
// (after a forced garbage collection) after the first 100 and after all of them. A
// measurement, not a test.
import { startServer, launch, seededState } from './harness.mjs';

const args = process.argv.slice(2);
const slowdown = args.includes('--cpu-slowdown') ? Number(args[args.indexOf('--cpu-slowdown') + 1]) : 1;
const edits = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--cpu-slowdown') ?? 1000);
const { server, base } = await startServer();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cdp = await page.context().newCDPSession(page);

await page.goto(`${base}?preset=raschka`);
await page.waitForSelector('[data-matrix="weights"]');
const limits = await seededState(page, 64, { d_in: 128, d_k: 128, d_v: 128, heads: 16 });
await page.goto(`${base}?preset=dog`);
await page.waitForSelector('[data-matrix="weights"]');
await page.evaluate((state) => window.attentionExplorer.load(state), limits);
if (slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });

/** Edits cells `from` … `to` − 1 of a walk that never repeats a cell, one frame each. */
const editCells = (from, to) => page.evaluate(async ({ from, to }) => {
  const matrices = ['w_query', 'w_key', 'w_value', 'embedding'];
  for (let k = from; k < to; k++) {
    const matrix = matrices[k % 4];
    const rows = matrix === 'embedding' ? 64 : 128;
    const cell = Math.floor(k / 4);
    const error = window.attentionExplorer.edit(matrix, cell % 16, (cell * 7) % rows, (cell * 13) % 128, (k % 19) * 0.1 - 0.9);
    if (error) throw new Error(error);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}, { from, to });

async function measure() {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(() => window.attentionExplorer.memoryBytes());
  return { wasm, heap: usedSize };
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
await editCells(0, 100);
const first = await measure();
await editCells(100, edits);
const last = await measure();
const ratio = (key) => `${((last[key] / first[key] - 1) * 100).toFixed(1)} %`;
console.log(`CPU ${slowdown}× slower; after 100 edits: wasm ${mb(first.wasm)}, JS heap ${mb(first.heap)}`);
console.log(`after ${edits} edits: wasm ${mb(last.wasm)} (${ratio('wasm')}), JS heap ${mb(last.heap)} (${ratio('heap')})`);
await browser.close();
server.close();
