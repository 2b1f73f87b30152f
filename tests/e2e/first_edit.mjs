// `node tests/e2e/first_edit.mjs RUNS DIST FLOOR` (from the project root): the school phone's first
// live edit. Each folder is served gzipped (as static hosts do); the phone is Chrome's Fast 3G
// (CDP), the CPU 4× slower, a 390 × 844 screen, no cache; the two pages alternate. As soon as
// W_query's first cell is on screen, a number is typed into it; the edit is live when head 0's
// last context row shows a new value. Prints the medians of each moment from the navigation:
// the cell on screen, the opening page's live module downloaded (src/ui/live/), the edit
// live, the app's first module downloaded, the app started behind the opening page, the
// hand-over, and <html data-ready>. A measurement, not a test.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { serveGzipped } from './gzipped.mjs';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
const [runs, ...roots] = process.argv.slice(2);
/** In the page, from its first script: the moments, on `window.moments`; `edited` is head 0's
 * last context row once the number is typed (undefined: `type` only). */
function watch(edited) {
  const m = (window.moments = {});
  const now = () => performance.now();
  let typed = false;
  const context = () => {
    const c = document.querySelector('table[data-matrix="context"][data-head="0"]') ?? document.querySelector('table[data-matrix="context"]');
    const rows = c?.querySelectorAll('td[data-col="0"]');
    return rows?.[rows.length - 1]?.dataset.value;
  };
  window.context = context;
  const check = () => {
    const table = document.querySelector('table[data-matrix="w_query"][data-head="0"]') ?? document.querySelector('table[data-matrix="w_query"]');
    const input = table?.querySelector('td[data-row="0"][data-col="0"] input');
    if (!typed && input && input.checkVisibility()) {
      typed = true;
      m.cell = now();
      input.value = '0.75';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (typed && m.live === undefined && edited !== undefined && context() === edited) m.live = now();
    if (m.started === undefined && document.querySelector('body > main:not(#prerendered):not(#boot)')) m.started = now();
    if (m.started !== undefined && m.handedOver === undefined && !document.getElementById('prerendered')) m.handedOver = now();
    if (m.ready === undefined && document.documentElement.dataset.ready === 'true') m.ready = now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

const servers = await Promise.all(roots.map((r) => serveGzipped(resolve(r))));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
// The context row the edit gives, on each page at full speed.
const edited = [];
for (const server of servers) {
  const page = await browser.newPage();
  await page.addInitScript(watch);
  await page.goto(`http://127.0.0.1:${server.address().port}/?preset=dog`);
  await page.waitForFunction(() => window.moments.cell !== undefined && !document.getElementById('prerendered') && !document.getElementById('boot'));
  await page.waitForTimeout(1000);
  edited.push(await page.evaluate(() => window.context()));
  await page.close();
}
const got = roots.map(() => []);
for (let i = 0; i < +runs; i++) for (const [k, server] of servers.entries()) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(watch, edited[k]);
  await page.goto(`http://127.0.0.1:${server.address().port}/?preset=dog`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.moments?.live !== undefined, null, { timeout: 120000, polling: 50 });
  // The app's own page, once it has taken over (the floor has none).
  await page.waitForFunction(() => window.moments.handedOver !== undefined || !document.querySelector('script[data-app]'), null, { timeout: 120000, polling: 50 });
  const moments = await page.evaluate(() => {
    const arrived = (file) => performance.getEntriesByType('resource').find((e) => file.test(e.name))?.responseEnd;
    return { ...window.moments, liveModule: arrived(/attention-live_bg\.wasm$/), module: arrived(/attention-explorer_bg\.wasm$/) };
  });
  got[k].push(moments);
  await ctx.close();
}
await browser.close();
servers.forEach((s) => s.close());
const med = (xs) => { const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : undefined; };
const names = ['cell', 'liveModule', 'live', 'module', 'started', 'handedOver', 'ready'];
const medians = got.map((runs) => Object.fromEntries(names.map((n) => [n, med(runs.map((r) => r[n]))])));
roots.forEach((r, k) => console.log(`${r}: ${names.filter((n) => medians[k][n] !== undefined).map((n) => `${n} ${(medians[k][n] / 1000).toFixed(2)} s`).join(', ')}`));
if (roots.length === 2) console.log(`first live edit: ${(medians[0].live / medians[1].live).toFixed(2)}× the second's`);
