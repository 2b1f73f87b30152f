// `node tests/e2e/on_demand_time.mjs RUNS DIST [MBITS RTT_MS]` (from the project root): how long
// each part fetched on demand takes to show on the desktop (1280 × 900), from the moment a script
// in the page scrolls to it, clicks its button or picks its option, until what it shows is in the
// DOM. Each part in a fresh page (a lab scrolled to brings its neighbours' with it). DIST is
// served gzipped, with no cache; MBITS and RTT_MS throttle the network (CDP), as a school's or
// home connection would. Prints each part's median and worst. A measurement, not a
// test (issue 52: "a lab or panel that now arrives on demand shows within 300 ms").
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { serveGzipped } from './gzipped.mjs';
import { PARTS } from './parts.mjs';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
const [runs, root, mbits, rtt] = process.argv.slice(2);

// What a learner asks for: the parts that come when scrolled to, clicked or picked.
const ASKED = Object.entries(PARTS).filter(([, p]) => (p.near || p.click || p.select) && !p.download);

/** In the page: asks for the part `name` and resolves to the milliseconds until what it shows
 * is there. */
function ask([, { near, click, select, shows }]) {
  return new Promise((done) => {
    const t0 = performance.now();
    const check = () => {
      if (!document.querySelector(shows)) return;
      watch.disconnect();
      done(performance.now() - t0);
    };
    const watch = new MutationObserver(check);
    watch.observe(document, { childList: true, subtree: true, attributes: true });
    if (near) document.querySelector(near).scrollIntoView();
    if (click) {
      const button = document.querySelector(click);
      button.closest('details')?.setAttribute('open', '');
      button.scrollIntoView();
      button.click();
    }
    if (select) {
      const field = document.querySelector(select[0]);
      field.value = select[1];
      field.dispatchEvent(new Event('change', { bubbles: true }));
    }
    check();
  });
}

const server = await serveGzipped(resolve(root));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const got = Object.fromEntries(ASKED.map(([name]) => [name, []]));
for (let i = 0; i < +runs; i++) for (const part of ASKED) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  // The language model's file is not what is timed: its panel's progress line is.
  await page.route(/\.gguf$/, () => {});
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (mbits) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: +rtt, downloadThroughput: (+mbits * 1e6) / 8, uploadThroughput: (+mbits * 1e6) / 8 });
  await page.goto(`http://127.0.0.1:${server.address().port}/?preset=dog`);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 120000 });
  got[part[0]].push(await page.evaluate(ask, part));
  await ctx.close();
}
await browser.close();
server.close();
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, times] of Object.entries(got)) {
  console.log(`${name.padEnd(24)} median ${med(times).toFixed(0).padStart(5)} ms, worst ${Math.max(...times).toFixed(0).padStart(5)} ms`);
}
