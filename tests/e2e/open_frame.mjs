// `node tests/e2e/open_frame.mjs LOADS URL_A URL_B` (from the project root, the pages served): the
// frame in which the weights table is first on screen, read in the page (a requestAnimationFrame
// once the table is in the DOM and visible), beside load.mjs's measure (when a script running in
// the page first sees it, late while the page is busy starting its wasm). A measurement, not a test.
import { createRequire } from 'node:module';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
const [loads, ...urls] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const r = urls.map(() => ({ frame: [], seen: [] }));
for (let i = 0; i < +loads; i++) for (let k = 0; k < urls.length; k++) {
  const ctx = await browser.newContext(); const page = await ctx.newPage();
  await page.addInitScript(() => {
    const look = () => {
      const t = document.querySelector('[data-matrix="weights"]');
      if (!t || !t.checkVisibility()) return false;
      requestAnimationFrame(() => { window.tableFrame = performance.now(); });
      return true;
    };
    new MutationObserver((_, o) => { if (look()) o.disconnect(); }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  await page.goto(urls[k], { waitUntil: 'commit' });
  await page.waitForSelector('[data-matrix="weights"]');
  r[k].seen.push(await page.evaluate(() => performance.now()));
  await page.waitForFunction(() => window.tableFrame);
  r[k].frame.push(await page.evaluate(() => window.tableFrame));
  await ctx.close();
}
await browser.close();
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
urls.forEach((u, k) => console.log(`${u}: table's frame ${med(r[k].frame).toFixed(0)} ms, seen by the script ${med(r[k].seen).toFixed(0)} ms`));
console.log(`ratio: frame ${(med(r[0].frame) / med(r[1].frame)).toFixed(2)}, seen ${(med(r[0].seen) / med(r[1].seen)).toFixed(2)}`);
