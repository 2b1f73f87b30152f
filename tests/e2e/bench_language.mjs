// `[TORCH_PYTHON=python3] node tests/e2e/bench_language.mjs [--cpu-slowdown N]` (after
// `bash .ci/build.sh`): the language model in the built page, and llama.cpp compiled to
// WebAssembly on the same file in the same browser, side by side. A measurement, not a test. The
// anchor is `@wllama/wllama` 3.8.1, single-threaded (as a page without cross-origin isolation
// runs it), installed with `npm install --no-save @wllama/wllama@3.8.1`; without it, the page
// alone is measured. With TORCH_PYTHON (a Python with torch, transformers 4.57.6 and gguf), PyTorch
// float32 on the CPU too (tests/benches/decoder_torch.py). wllama computes in a worker, which
// --cpu-slowdown does not slow: beside a slowed page, only the page's own times mean something.
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, createReadStream, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { startServer, launch, projectRoot } from './harness.mjs';

const slowdown = Number(process.argv[process.argv.indexOf('--cpu-slowdown') + 1]) || 1;
const PROMPT = 'The quick brown fox jumps over the lazy dog, and then the cat sat on the'; // 16 pieces
const MODEL = join(projectRoot, 'dist', 'models', 'smollm2-135m-instruct.Q4_1.gguf');
const WLLAMA = join(projectRoot, 'node_modules', '@wllama', 'wllama');
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

const browser = await launch();

/** A CPU slowed `slowdown` times (the school phone's is 4), on a page's DevTools session. */
async function slowed(page) {
  if (slowdown === 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
}

/** Every task of 50 ms or more the page runs from now, as `window.longTasks`. */
const watchTasks = (page) => page.evaluate(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
});

/** Milliseconds until the next-token view is no longer busy and its rows differ from before. */
const viewAfter = (page, act) => page.evaluate(async (act) => {
  const rows = () => [...document.querySelectorAll('[data-view="next-token"][aria-busy="false"] tr[data-token-id]')].map((r) => r.dataset.tokenId + r.dataset.prob).join();
  const before = rows();
  window.longTasks.length = 0;
  const start = performance.now();
  new Function(act)();
  while (rows() === before || rows() === '') await new Promise((r) => setTimeout(r, 5));
  return { ms: performance.now() - start, longest: Math.max(0, ...window.longTasks) };
}, act);

async function page() {
  const { server, base } = await startServer();
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const ready = () => p.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await p.goto(`${base}?preset=dog`);
  await ready();
  // Opened as on a second visit: fetched once, kept by the service worker (as after a first
  // use), then the page reloaded, so that opening reads the worker's copy as a returning
  // learner's page does, and the worker's first install does not run meanwhile.
  const model = 'models/smollm2-135m-instruct.Q4_1.gguf';
  await p.evaluate(async (f) => { await (await fetch(f)).arrayBuffer(); }, model);
  const kept = (f) => p.evaluate(async (f) => !!navigator.serviceWorker.controller && !!(await caches.match(new URL(f, location.href).href)), f);
  for (const deadline = Date.now() + 60_000; !(await kept(model)); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > deadline) throw new Error('the service worker did not keep the model within a minute');
  }
  await p.reload();
  await ready();
  await slowed(p);
  await watchTasks(p);
  await p.$$eval('details.settings', (all) => all.forEach((d) => { d.open = true; }));
  const opened = await viewAfter(p, `document.querySelector('[data-action="load-decoder"]').click()`);
  const typed = await viewAfter(p, `const s = document.querySelector('[data-control="sentence"]'); s.value = ${JSON.stringify(PROMPT)}; s.dispatchEvent(new Event('input', { bubbles: true }))`);
  const pieces = await p.$$eval('.tokens [data-token]', (t) => t.length);
  const edited = await viewAfter(p, `window.attentionExplorer.edit('w_query', 0, 0, 0, 0.5)`);
  const written = await viewAfter(p, `document.querySelector('[data-action="next-token"]').click()`);
  const memory = await p.evaluate(() => ({ heap: performance.memory?.usedJSHeapSize ?? 0, wasm: window.attentionExplorer.memoryBytes?.() ?? 0 }));
  await p.close();
  server.close();
  return { opened, typed, pieces, edited, written, memory };
}

/** wllama on the same prompt: the prompt's evaluation and one token after it, as its own timings say. */
async function wllama() {
  if (!existsSync(join(WLLAMA, 'esm', 'index.js'))) return null;
  const server = createServer((req, res) => {
    const path = req.url === '/model.gguf' ? MODEL : join(WLLAMA, req.url.split('?')[0]);
    if (req.url === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>wllama</title>'); return; }
    if (!existsSync(path) || !statSync(path).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': { '.js': 'text/javascript', '.wasm': 'application/wasm' }[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  }).listen(0);
  const p = await browser.newPage();
  await p.goto(`http://127.0.0.1:${server.address().port}/`);
  await slowed(p);
  const result = await p.evaluate(async (prompt) => {
    const { Wllama } = await import('/esm/index.js');
    const quiet = { debug() {}, log() {}, warn() {}, error: console.error };
    const w = new Wllama({ default: '/esm/wasm/wllama.wasm' }, { suppressNativeLog: true, logger: quiet });
    const blob = await (await fetch('/model.gguf')).blob();
    let start = performance.now();
    await w.loadModel([blob], { n_threads: 1, n_ctx: 512, n_gpu_layers: 0 });
    const loaded = performance.now() - start;
    const runs = [];
    for (let k = 0; k < 3; k++) {
      const r = await w.createCompletion({ prompt, max_tokens: 11, temperature: 0, cache_prompt: false });
      runs.push(r.timings);
    }
    return { loaded, threads: w.getNumThreads(), runs };
  }, PROMPT);
  await p.close();
  server.close();
  const best = (key) => Math.min(...result.runs.map((t) => t[key]));
  return { loaded: result.loaded, threads: result.threads, prompt: best('prompt_ms'), pieces: result.runs[0].prompt_n, token: best('predicted_per_token_ms') };
}

/** PyTorch float32 on one CPU thread, when TORCH_PYTHON is given. */
function torch() {
  if (!process.env.TORCH_PYTHON) return null;
  const out = execFileSync(process.env.TORCH_PYTHON, [join(projectRoot, 'tests', 'benches', 'decoder_torch.py'), MODEL, PROMPT], { stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out.toString().trim().split('\n').pop());
}

const ours = await page();
const anchor = await wllama();
const pytorch = torch();
console.log(`CPU × ${slowdown}; prompt "${PROMPT}"`);
console.log(`the page:  opened → next token ${fmt(ours.opened.ms)} (5 pieces); ${ours.pieces}-piece prompt → next token ${fmt(ours.typed.ms)}; layer-0 edit → ${fmt(ours.edited.ms)}; a token from the cache ${fmt(ours.written.ms)}`);
console.log(`           longest task: ${[ours.opened, ours.typed, ours.edited, ours.written].map((x) => `${x.longest.toFixed(0)} ms`).join(', ')}; JS heap ${(ours.memory.heap / 1e6).toFixed(0)} MB, wasm memory ${(ours.memory.wasm / 1e6).toFixed(0)} MB`);
if (anchor) {
  console.log(`wllama:    loaded ${fmt(anchor.loaded)} (${anchor.threads} thread); ${anchor.pieces}-piece prompt ${fmt(anchor.prompt)}; a token ${fmt(anchor.token)} (best of 3)`);
  console.log(`ratio:     prompt ${(ours.typed.ms / anchor.prompt).toFixed(1)}×, a token ${(ours.written.ms / anchor.token).toFixed(1)}×`);
} else console.log('wllama: not installed (npm install --no-save @wllama/wllama@3.8.1)');
if (pytorch) console.log(`PyTorch:   ${pytorch.pieces}-piece prompt ${fmt(pytorch.prompt_ms)}; a token ${fmt(pytorch.token_ms)} (float32, 1 thread, best of 5)`);
await browser.close();
