// `node tests/e2e/bench.mjs [--trained | --variants]` (after `bash .ci/build.sh`): how long the built page takes to open
// a model, to load one through the scripting API, and to show an edit. A measurement, not a test.
import { startServer, launch, seededState } from './harness.mjs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/** For `count` `attentionExplorer.edit` calls, milliseconds from the call until the page's work
 * is done (every effect has run: the next task) and until the next frame is painted (a
 * requestAnimationFrame callback followed by setTimeout 0); median and p95 of each. */
async function editToFrame(page, matrix, count = 120) {
  return page.evaluate(async ({ matrix, count }) => {
    const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const work = [];
    const frame = [];
    await nextFrame();
    for (let k = 0; k < count; k++) {
      const start = performance.now();
      const error = window.attentionExplorer.edit(matrix, 0, k % 2, 0, 0.1 + (k % 17) * 0.05);
      if (error) throw new Error(error);
      await nextTask();
      work.push(performance.now() - start);
      await nextFrame();
      frame.push(performance.now() - start);
    }
    const stats = (times) => {
      times.sort((a, b) => a - b);
      return { median: times[Math.floor(count / 2)], p95: times[Math.floor(count * 0.95)] };
    };
    return { work: stats(work), frame: stats(frame) };
  }, { matrix, count });
}

/** Milliseconds from `attentionExplorer.load(state)` to the next frame painted. */
async function loadToFrame(page, state) {
  return page.evaluate(async (state) => {
    const start = performance.now();
    const error = window.attentionExplorer.load(state);
    if (error) throw new Error(error);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  }, state);
}

const { server, base } = await startServer();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const fmt = (x) => x.toFixed(1).padStart(6);

/** Opens `preset` (timing navigation → first weights on the page), loads `state` if given,
 * scrolls to `section` if given (heat maps out of view are painted only when they come into view),
 * then times edits of W_query (one head recomputed) and of the embedding (every head). */
async function report(name, preset, state = null, section = null) {
  await page.goto('about:blank');
  const start = Date.now();
  await page.goto(`${base}?preset=${preset}`);
  await page.waitForSelector('[data-matrix="weights"]');
  const opened = `open ${String(Date.now() - start).padStart(4)} ms`;
  const loaded = state ? `load ${fmt(await loadToFrame(page, state))} ms` : ' '.repeat(12);
  if (section) await page.locator(section).scrollIntoViewIfNeeded();
  const w = await editToFrame(page, 'w_query');
  const e = await editToFrame(page, 'embedding');
  const cells = await page.locator('td').count();
  const maps = await page.locator('canvas').count();
  const both = (t) => `work ${fmt(t.work.median)} / ${fmt(t.work.p95)}, frame ${fmt(t.frame.median)} / ${fmt(t.frame.p95)}`;
  console.log(`${name}\n   ${state ? loaded : opened}  ${cells} cells, ${maps} canvases;  edit → ms, median / p95:  W_query: ${both(w)};  embedding: ${both(e)}`);
}

/** The trained model (when the build has it): layer 0 in the page on a 16-piece sentence, the
 * model view's layer 5 head 11 opened. For 20 edits of layer 0's W_query: ms to the next frame
 * (the page's own steps), to layer 5's numbers changed (every later layer run, a task per
 * layer), and the longest task meanwhile (what a click or a keystroke could wait for). */
async function trained() {
  await page.goto(`${base}?preset=dog`);
  await page.waitForSelector('[data-matrix="weights"]');
  await page.fill('[data-control="sentence"]', "The animal didn't cross the street because it was too tired.");
  await page.click('[data-action="load-pretrained"]');
  const opened = await page.waitForSelector('[data-view="model"]', { timeout: 60_000 }).then(() => true, () => false);
  if (!opened) return console.log('trained model: not in this build');
  await page.click('.model-head[data-layer="5"][data-head="11"]');
  await page.waitForSelector('[data-view="pretrained-head"] td[data-value]');
  const t = await page.evaluate(async () => {
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const row = () => [...document.querySelectorAll('[data-view="pretrained-head"] td[data-value]')].map((c) => c.dataset.value).join();
    const longest = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => longest.push([e.startTime, e.duration]))).observe({ type: 'longtask' });
    const frame = [];
    const all = [];
    const task = [];
    for (let k = 0; k < 20; k++) {
      await nextFrame();
      const before = row();
      const start = performance.now();
      const error = window.attentionExplorer.edit('w_query', 2, 7, 3, k % 2 ? 40 : -40 + k);
      if (error) throw new Error(error);
      await nextFrame();
      frame.push(performance.now() - start);
      while (row() === before) await new Promise((resolve) => setTimeout(resolve, 1));
      const end = performance.now();
      all.push(end - start);
      await new Promise((resolve) => setTimeout(resolve, 60)); // the observer reports a moment later
      task.push(Math.max(0, ...longest.filter(([s]) => s >= start && s <= end).map(([, d]) => d)));
    }
    const median = (x) => x.sort((a, b) => a - b)[Math.floor(x.length / 2)];
    return { frame: median(frame), all: median(all), task: median(task), worst: Math.max(...task) };
  });
  console.log(`trained model, layer 0 in the page, 16 pieces; edit of W_query → ms, median of 20:\n   the page's steps ${fmt(t.frame)}, every later layer ${fmt(t.all)}, longest task meanwhile ${fmt(t.task)} (worst ${fmt(t.worst)})`);
}

if (process.argv.includes('--trained')) {
  await trained();
  await browser.close();
  server.close();
  process.exit(0);
}

/** The variants at the limits (64 tokens, 16 heads, d 128): as they are, with 4 key/value
 * heads, and with a 64-token source sentence; the same edits timed on each, in one run. */
async function variants() {
  const made = async (then) => {
    await page.goto(`${base}?preset=raschka`);
    await page.waitForSelector('[data-matrix="weights"]');
    await seededState(page, 64, { d_in: 128, d_k: 128, d_v: 128, heads: 16 });
    await then();
    return page.evaluate(() => window.attentionExplorer.state());
  };
  const plain = await made(async () => {});
  const toKv4 = async () => {
    await page.fill('[data-control="kv_heads"]', '4');
    await page.waitForFunction(() => window.attentionExplorer.state().kv_heads === 4);
  };
  const toSource = async () => {
    await page.fill('[data-control="source"]', Array.from({ length: 64 }, (_, i) => `s${i}`).join(' '));
    await page.waitForFunction(() => window.attentionExplorer.state().source?.embedding.length === 64);
  };
  const grouped = await made(toKv4);
  const crossed = await made(toSource);
  for (const [name, state] of [['the limits', plain], ['  with kv_heads 4', grouped], ['  with a 64-token source', crossed]]) {
    await report(name, 'dog', state);
    await report(`${name}, looking at the weights`, 'dog', state, '#step-weights');
  }
  // Beside the floor (../shared/perf/floor, plain JS, no variants): 64 tokens and 16 heads whose
  // weights are tables, the page's three models against the floor's plain one, typed into
  // W_query[0][0] of head 0 as a learner types, round by round in one browser.
  const small = { d_in: 16, d_k: 8, d_v: 8, heads: 16 };
  const sized = async (then) => {
    await page.goto(`${base}?preset=raschka`);
    await page.waitForSelector('[data-matrix="weights"]');
    await seededState(page, 64, small);
    await then();
    return page.evaluate(() => window.attentionExplorer.state());
  };
  const floor = await floorServer();
  const pages = [];
  for (const [name, then] of [['page, plain', async () => {}], ['page, kv_heads 4', toKv4], ['page, a 64-token source', toSource]]) {
    const state = encodeURIComponent(JSON.stringify(await sized(then)));
    pages.push([name, `${base}#state=${state}`]);
    if (name === 'page, plain') pages.push(['floor, plain', `${floor.base}#state=${state}`]);
  }
  const opened = [];
  for (const [name, url] of pages) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await p.goto(url);
    await p.waitForSelector('table[data-matrix="w_query"] td[data-row] input', { timeout: 60_000 });
    opened.push([name, p, []]);
  }
  for (let round = 0; round < 130; round++) {
    for (const [, p, times] of opened) {
      const t = await typedToFrame(p);
      if (round >= 10) times.push(t); // the first ten warm up
    }
  }
  const floorMedian = median(opened.find(([name]) => name.startsWith('floor'))[2]);
  console.log('beside the floor: 64 tokens, 16 heads, d_in 16, d_k = d_v = 8; typed into W_query → next frame, ms, median / p95 of 120');
  for (const [name, p, times] of opened) {
    console.log(`   ${name.padEnd(26)} ${fmt(median(times))} / ${fmt(p95(times))}  (${(median(times) / floorMedian).toFixed(2)}× the floor's median)`);
    await p.close();
  }
  floor.server.close();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

/** W_query[0][0] of head 0 typed into (as `../shared/perf/latency.mjs` does): ms from the input
 * event to the next frame. */
function typedToFrame(page) {
  return page.evaluate(async () => {
    const table = document.querySelector('table[data-matrix="w_query"][data-head="0"]') || document.querySelector('table[data-matrix="w_query"]');
    const input = table.querySelector('td[data-row="0"][data-col="0"] input');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const start = performance.now();
    input.value = String((parseFloat(input.value) || 0) > 0.6 ? 0.5 : 0.75);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  });
}

/** ../shared/perf/floor served on a port of its own. */
async function floorServer() {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/perf/floor');
  const server = createServer(async (req, res) => {
    const path = normalize(new URL(req.url, 'http://localhost').pathname.slice(1) || 'index.html');
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' }[extname(path)] ?? 'application/octet-stream';
    const body = await readFile(join(dir, path.startsWith('..') ? 'missing' : path)).catch(() => null);
    if (body) res.writeHead(200, { 'content-type': type }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv.includes('--variants')) {
  await variants();
  await browser.close();
  server.close();
  process.exit(0);
}

// States made by the page itself, before any timing.
await page.goto(`${base}?preset=raschka`);
await page.waitForSelector('[data-matrix="weights"]');
const mid = await seededState(page, 64, { d_in: 64, d_k: 16, d_v: 16, heads: 8 }, true);
await page.goto(`${base}?preset=raschka`);
await page.waitForSelector('[data-matrix="weights"]');
const limits = await seededState(page, 64, { d_in: 128, d_k: 128, d_v: 128, heads: 16 });

await report('dog (9 tokens, 1 head)', 'dog');
await report('raschka (6 tokens, 1 head)', 'raschka');
await report('raschka-multihead (6 tokens, 4 heads)', 'raschka-multihead');
await report('64 tokens, d_in 64, d_k = d_v = 16, 8 heads, causal', 'dog', mid);
await report('  the same, looking at the weights', 'dog', mid, '#step-weights');
await report('the limits: 64 tokens, 16 heads, d 128', 'dog', limits);
await report('  the same, looking at the weights', 'dog', limits, '#step-weights');
await trained();
await browser.close();
server.close();
