// `node tests/e2e/edit_order.mjs EDITS URL…` (from the project root, the pages served): what an
// edit writes, in order. latency.mjs's edit (a number typed into head 0's W_query[0][0]) EDITS
// times per page; each element's writes (its attributes, a text written whole) are timed from
// the input event, the first and the last, grouped by the table, picture or sentence they are
// in, and the medians printed in the order they came. The wrappers cost a little: the times
// are to compare one part with another, not with latency.mjs's. A measurement, not a test.
import { createRequire } from 'node:module';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
const [edits, ...urls] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const url of urls) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('table[data-matrix="w_query"] td[data-row] input', { timeout: 30_000 });
  await page.waitForFunction(() => !document.getElementById('prerendered'));
  await page.evaluate(() => {
    const part = (e) => {
      const t = e.closest('[data-matrix], [data-view], [data-stat], figcaption');
      if (!t) return e.tagName;
      return t.dataset.matrix ? `table ${t.dataset.matrix} ${t.dataset.head ?? ''}` : t.dataset.view ? `picture ${t.dataset.view}` : t.dataset.stat ? `words ${t.dataset.stat}` : 'caption';
    };
    const mark = (element) => {
      if (!window.writes) return;
      const at = performance.now() - window.writes.t0, last = window.writes.parts.at(-1), where = part(element);
      if (last?.[0] === where) last[2] = at; else window.writes.parts.push([where, at, at]);
    };
    const write = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      mark(this);
      return write.call(this, name, value);
    };
    // The floor writes a cell's text whole.
    const text = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
    Object.defineProperty(Node.prototype, 'textContent', {
      get() { return text.get.call(this); },
      set(value) { mark(this.nodeType === 1 ? this : this.parentElement); text.set.call(this, value); },
    });
  });
  const seen = new Map();
  for (let i = 0; i < 10 + +edits; i++) {
    const parts = await page.evaluate(async () => {
      const input = (document.querySelector('table[data-matrix="w_query"][data-head="0"]') || document.querySelector('table[data-matrix="w_query"]'))
        .querySelector('td[data-row="0"][data-col="0"] input');
      input.value = String((parseFloat(input.value) || 0) > 0.6 ? 0.5 : 0.75);
      window.writes = { t0: performance.now(), parts: [] };
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      const { parts } = window.writes;
      window.writes = null;
      return parts;
    });
    if (i < 10) continue; // warm-up
    parts.forEach(([where, first, last], k) => {
      const s = seen.get(where) ?? { order: [], first: [], last: [] };
      s.order.push(k); s.first.push(first); s.last.push(last);
      seen.set(where, s);
    });
  }
  console.log(url);
  for (const [where, s] of [...seen].sort((a, b) => median(a[1].first) - median(b[1].first))) {
    console.log(`  ${where.padEnd(28)} first ${median(s.first).toFixed(2)} ms, last ${median(s.last).toFixed(2)} ms`);
  }
  await page.close();
}
await browser.close();
