// `node tests/e2e/slow_course.mjs RUNS DIST [DIST_B]` (from the project root): course pages with
// one and four embeds (first_bytes.mjs's) on a school network: each DIST served here with 150 ms
// before each response and 1.6 Mbit/s shared by everything it sends, the CPU 4× slower, a phone's
// screen. Prints the medians of when the last frame shows its tables (its first height posted)
// and when the last is ready (<html data-ready>); two builds alternate. A measurement, not a test.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname, normalize, resolve } from 'node:path';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
const [runs, ...dists] = process.argv.slice(2);
const STEPS = ['scores,weights', 'weights,output', 'qkv,scores', 'context,output'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };
const BYTES_PER_MS = 1.6e6 / 8 / 1000;

/** Serves `root` gzipped, with CORS (the frames are sandboxed), as a slow line would. */
function slowServer(root) {
  const course = (k) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script>
window.shown = []; window.at = []; addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:resize' && !shown.includes(e.source)) { shown.push(e.source); at.push(performance.now()); } });
</script></head><body>${STEPS.slice(0, k).map((s) => `<iframe src="./?embed=1&amp;preset=dog&amp;steps=${s}" width="100%" height="220" sandbox="allow-scripts"></iframe>`).join('')}</body></html>`;
  let sending = [];
  const zipped = new Map();
  // Every 10 ms, 10 ms of the line shared between the responses being sent.
  const line = setInterval(() => {
    let budget = BYTES_PER_MS * 10;
    while (budget >= 1 && sending.length) {
      const share = Math.max(1, Math.floor(budget / sending.length));
      for (const s of [...sending]) {
        const n = Math.min(share, s.body.length - s.sent);
        s.res.write(s.body.subarray(s.sent, s.sent + n));
        s.sent += n;
        budget -= n;
        if (s.sent === s.body.length) { s.res.end(); sending = sending.filter((x) => x !== s); }
      }
    }
  }, 10);
  const server = createServer((req, res) => setTimeout(() => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).slice(1) || 'index.html';
    const page = path.match(/^course-(\d)\.html$/);
    const file = join(root, path);
    if (!page && (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory())) {
      res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
      return;
    }
    const body = page ? gzipSync(course(+page[1])) : zipped.get(file) ?? zipped.set(file, gzipSync(readFileSync(file))).get(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-encoding': 'gzip', 'access-control-allow-origin': '*', 'cache-control': 'no-cache', 'content-length': body.length });
    const response = { res, body, sent: 0 };
    sending.push(response);
    // A frame closed mid-download no longer shares the line.
    res.on('close', () => { sending = sending.filter((x) => x !== response); });
  }, 150));
  server.on('close', () => clearInterval(line));
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

const servers = await Promise.all(dists.map((d) => slowServer(resolve(d))));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const times = {};
for (let i = 0; i < +runs; i++) for (const [d, server] of servers.entries()) for (const k of [1, 4]) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const start = Date.now();
  await page.goto(`http://127.0.0.1:${server.address().port}/course-${k}.html`, { waitUntil: 'commit' });
  await page.waitForFunction((k) => window.shown.length >= k, k, { timeout: 120000, polling: 20 });
  const shown = Math.max(...await page.evaluate(() => window.at));
  const frames = () => page.frames().filter((f) => f !== page.mainFrame());
  while (frames().length < k) await page.waitForTimeout(20);
  for (const f of frames()) await f.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 120000, polling: 50 });
  (times[`${d} ${k}`] ??= []).push([shown, Date.now() - start]);
  await context.close();
}
await browser.close();
servers.forEach((s) => s.close());
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
dists.forEach((dist, d) => [1, 4].forEach((k) => {
  const t = times[`${d} ${k}`];
  console.log(`${dist}: ${k} embed${k > 1 ? 's' : ''}: tables on screen ${(med(t.map((x) => x[0])) / 1000).toFixed(2)} s, ready ${(med(t.map((x) => x[1])) / 1000).toFixed(2)} s`);
}));
