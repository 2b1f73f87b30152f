// Benchmark (not a test): the notebook widget's speed beside the page in a tab, in one run.
//   node tests/e2e/notebook_bench.mjs [ROUNDS]   (needs target/notebook-env: run the test command once)
// Each round, in a fresh browser context (an empty cache, as a first visit): the page opened in a
// tab from the kernel's server with the widget's options, until W_query shows; then JupyterLab
// opened, the cell creating the first widget run, until its W_query shows; a second widget's cell
// likewise; then 10 numbers typed into the first widget, each timed from the input event in the
// frame to Python's `observe` callback (one clock: the same machine).
import { startLab, openNotebook, run, missing } from './jupyter.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const READY = 'table[data-matrix="w_query"]';
const CELLS = [
  `import json, time
from attention_explorer import Explorer, _server
arrivals = []
print(_server.base_url())`,
  `explorer = Explorer(steps=["projections", "weights"])
explorer.observe(lambda change: arrivals.append([time.time() * 1000, change["new"]["heads"][0]["w_query"][0][0]]), "state")
explorer`,
  `other = Explorer(steps=["projections", "weights"])
other`,
  `print(json.dumps(arrivals))`,
];

if (missing) {
  console.error(missing);
  process.exit(1);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const lab = await startLab(CELLS);
const times = { tab: [], first: [], second: [], edit: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const context = await lab.browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const { page } = await openNotebook(lab, { context });
    const base = (await run(page, 0)).replace('127.0.0.1', 'localhost');
    // The page in a tab of its own context (its own empty cache), with the widget's options.
    const tabContext = await lab.browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const tab = await tabContext.newPage();
    let start = Date.now();
    await tab.goto(`${base}index.html?embed=1&steps=projections,weights&theme=light`);
    await tab.waitForSelector(READY);
    times.tab.push(Date.now() - start);
    await tabContext.close();

    const frames = page.frameLocator('iframe[data-attention-explorer]');
    start = Date.now();
    await run(page, 1, { printed: false });
    await frames.nth(0).locator(READY).first().waitFor({ timeout: 60_000 });
    times.first.push(Date.now() - start);
    start = Date.now();
    await run(page, 2, { printed: false });
    await frames.nth(1).locator(READY).first().waitFor({ timeout: 60_000 });
    times.second.push(Date.now() - start);

    const input = frames.nth(0).locator('table[data-matrix="w_query"][data-head="0"] td[data-row="0"][data-col="0"] input');
    const typed = new Map();
    for (let k = 0; k < 10; k++) {
      const value = 1 + k / 10 + round;
      typed.set(value, await input.evaluate((el, value) => {
        el.value = String(value);
        const at = Date.now();
        el.dispatchEvent(new Event('input', { bubbles: true }));
        return at;
      }, value));
      await page.waitForTimeout(300);
    }
    // Each typed number matched with its own arrival (none missed: a missed one fails here).
    const arrivals = new Map(JSON.parse((await run(page, 3)).split('\n').pop()).map(([at, value]) => [value, at]));
    for (const [value, at] of typed) {
      if (!arrivals.has(value)) throw new Error(`${value} typed in the widget never reached Python`);
      times.edit.push(arrivals.get(value) - at);
    }
    await context.close();
  }
} finally {
  await lab.stop();
}
const row = (name, xs) => console.log(`${name.padEnd(34)} median ${median(xs).toFixed(0).padStart(5)} ms   p95 ${p95(xs).toFixed(0).padStart(5)} ms   (${xs.map((x) => x.toFixed(0)).join(', ')})`);
row('page in a tab (cold cache)', times.tab);
row('first widget: cell run → W_query', times.first);
row('second widget: cell run → W_query', times.second);
row('edit in the widget → Python', times.edit);
console.log(`first widget / tab ${(median(times.first) / median(times.tab)).toFixed(2)}×, second / tab ${(median(times.second) / median(times.tab)).toFixed(2)}×`);
