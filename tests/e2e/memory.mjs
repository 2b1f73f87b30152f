// `node tests/e2e/memory.mjs [EDITS] [--cpu-slowdown N] [--per-frame K] [--d D]` (after a
// release build): does memory stay flat over a long editing session? At 64 tokens and 16 heads
// of d_in = d_k = d_v = D (default 128, the limits) it makes EDITS (default 1 000) scripted
// edits, each of a different cell, K per painted frame (default 1; more: edits faster than
// frames), with the CPU N times slower (Chrome's throttling; default 1), and prints the wasm
// module's memory (`attentionExplorer.memoryBytes()`) and the JS heap (after a forced garbage
// collection) after the first 100 and after all of them. A measurement, not a test.
import { startServer, launch, seededState } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const slowdown = option('--cpu-slowdown', 1);
const perFrame = option('--per-frame', 1);
const d = option('--d', 128);
const edits = Number(args.find((a, i) => /^\d+$/.test(a) && !['--cpu-slowdown', '--per-frame', '--d'].includes(args[i - 1])) ?? 1000);
const { server, base } = await startServer();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cdp = await page.context().newCDPSession(page);

await page.goto(`${base}?preset=raschka`);
await page.waitForSelector('[data-matrix="weights"]');
const limits = await seededState(page, 64, { d_in: d, d_k: d, d_v: d, heads: 16 });
await page.goto(`${base}?preset=dog`);
await page.waitForSelector('[data-matrix="weights"]');
await page.evaluate((state) => window.attentionExplorer.load(state), limits);
if (slowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });

/** Edits cells `from` … `to` − 1 of a walk that never repeats a cell, `perFrame` per frame
 * (more than one: edits faster than frames, as typing on a busy machine). */
const editCells = (from, to) => page.evaluate(async ({ from, to, perFrame, d }) => {
  const matrices = ['w_query', 'w_key', 'w_value', 'embedding'];
  for (let k = from; k < to; k++) {
    const matrix = matrices[k % 4];
    const rows = matrix === 'embedding' ? 64 : d;
    const cell = Math.floor(k / 4);
    const error = window.attentionExplorer.edit(matrix, cell % 16, (cell * 7) % rows, (cell * 13) % d, (k % 19) * 0.1 - 0.9);
    if (error) throw new Error(error);
    if ((k + 1) % perFrame === 0) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
}, { from, to, perFrame, d });

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
console.log(`CPU ${slowdown}× slower, ${perFrame} edit(s) per frame; after 100 edits: wasm ${mb(first.wasm)}, JS heap ${mb(first.heap)}`);
console.log(`after ${edits} edits: wasm ${mb(last.wasm)} (${ratio('wasm')}), JS heap ${mb(last.heap)} (${ratio('heap')})`);
await browser.close();
server.close();
