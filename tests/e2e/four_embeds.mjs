// `node tests/e2e/four_embeds.mjs DESKTOP_LOADS SCHOOL_LOADS DIST [EMBED...]` (from the project root,
// e.g. `node tests/e2e/four_embeds.mjs 7 5 dist`; it serves DIST itself):
// a course page with four sandboxed embeds, pasted as the Embed dialog's snippet writes them, against
// the browser's floor: the same course page whose four frames are static copies of the same embed
// (its opening HTML as boot.js assembles it from the build's prerendered-embed-* files, with its
// stylesheets and no script). EMBED is an embed's address after DIST's root (default: the snippet
// the dialog writes for `?preset=dog` with only the weights step); each is one more course page.
// The course page is on another site (localhost) than the app and the copies (127.0.0.1), as a
// teacher's is; everything is served gzipped with `Access-Control-Allow-Origin: *`.
// Each frame reports, by postMessage to the course page (an init script, which Playwright runs in
// every frame), the frame its first table is painted in (the first requestAnimationFrame, after a
// change to the DOM or a stylesheet's load, in which it is visible) and, for the app, `<html
// data-ready>`; the times are on the course page's clock (its navigation start), across the
// processes by `performance.timeOrigin`.
// Desktop: no throttling, site isolation on (the frames are out-of-process, as in desktop Chrome).
// School network: Fast 3G (1.6 Mbit/s down, 750 kbit/s up, 150 ms) and the CPU 4× slower, set on
// the page's target; that browser runs without site isolation, so the frames are in the page's
// process and share its throttling (as on Android, which isolates few sites). One browser context
// per load (no cache); the pages alternate. Prints medians and ratios. A measurement, not a test.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname, normalize, resolve } from 'node:path';
const { chromium } = createRequire(process.cwd() + '/')('playwright-core');
// The dialog's src for dog, weights only. It used to carry the model as `#m=…`
// (`?embed=1&steps=weights#m=q1ZKSixOVbJSSslPV9JRKkstKs7Mz1OyMqwFAA`), which is not a link the
// preset's opening page is shown for, so those frames waited for the wasm; it names the preset now,
// and the embed's page of its own, with its step written in (link::snapshot::embed_page).
const SNIPPET = 'embed-dog-weights.html?preset=dog&embed=1&steps=weights';
const [desktopLoads, schoolLoads, distArg, ...given] = process.argv.slice(2);
const embeds = given.length ? given : [SNIPPET];
const dist = resolve(distArg);
const HEIGHT = 691; // the dialog's preview measured this for dog's weights step (the snippet's height)
const TABLE = '[data-matrix="weights"]';

// The static copy: index.html's head without its scripts, the boot message, and the embed's shell
// with its steps' files in it, numbered from 1, as boot.js puts them (html[data-snapshot] shows it).
const index = readFileSync(join(dist, 'index.html'), 'utf8');
const head = index.slice(index.indexOf('<head>'), index.indexOf('</head>') + 7).replace(/<script\b[\s\S]*?<\/script>/g, '');
const boot = index.match(/<main id="boot">[\s\S]*?<\/main>/)[0];
const params = new URLSearchParams(embeds[0].split('#')[0].slice(1));
const preset = params.get('preset') ?? 'dog';
// The build's list (html[data-prerendered]): the embed's shell and its steps, in pipeline order.
const { shell: shellFile, steps } = JSON.parse(index.match(/data-prerendered="([^"]*)"/)[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'))[`embed-${preset}`];
const asked = params.get('steps')?.split(',');
const stepFiles = steps.filter((s) => !asked || asked.includes(s)).map((s) => join(dist, shellFile.replace(/\.html$/, `-${s}.html`)));
let n = 0;
const shell = readFileSync(join(dist, shellFile), 'utf8').replace('<template data-steps=""></template>', stepFiles.map((f) => readFileSync(f, 'utf8')).join(''))
  .replace(/(<span class="step-number">)\d+/g, (_, s) => s + ++n);
const copy = `<!doctype html><html lang="en" data-theme="light" data-snapshot="embed-${preset}">${head}<body>${boot}${shell}</body></html>`;

// The course page: each embed pasted as the snippet writes it (core::formats::link::snippet), its
// script included each time (it listens once); the script is the build's embed-example.js.
const script = readFileSync(join(dist, 'embed-example.js'), 'utf8').split('\n').slice(1).join('\n  ').trimEnd();
const snippet = (src) => `<iframe src="${src.replace(/&/g, '&amp;')}" title="Attention Explorer" width="100%" height="${HEIGHT}" style="border:0;max-width:100%"
        sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" data-attention-explorer></iframe>
<script>
  ${script}
</script>`;
const course = (srcs) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Week 5: self-attention</title></head>
<body><h1>Week 5: self-attention</h1>\n${srcs.map((s, i) => `<p>Part ${i + 1}.</p>\n${snippet(s)}`).join('\n')}\n</body></html>`;

/** Serves DIST (and `pages`, by path) gzipped with CORS, as a static host would. */
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.txt': 'text/plain' };
const zipped = new Map();
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).slice(1) || 'index.html';
  const file = join(dist, path);
  const cors = { 'access-control-allow-origin': '*', 'cache-control': 'no-cache' };
  if (!pages[path] && (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory())) return res.writeHead(404, cors).end();
  const body = zipped.get(path) ?? zipped.set(path, gzipSync(pages[path] ?? readFileSync(file))).get(path);
  res.writeHead(200, { ...cors, 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-encoding': 'gzip' }).end(body);
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const app = `http://127.0.0.1:${server.address().port}/`; // the app's and the copies' site
const teacher = `http://localhost:${server.address().port}/`; // the course page's site
const pages = { 'floor.html': course([0, 1, 2, 3].map((i) => `${app}copy-${i}.html`)) };
[0, 1, 2, 3].forEach((i) => { pages[`copy-${i}.html`] = copy; });
embeds.forEach((e, k) => { pages[`course-${k}.html`] = course([0, 1, 2, 3].map(() => app + e)); });
const names = [...embeds.map((e, k) => `course-${k}.html`), 'floor.html'];

/** In every frame from its first script: a frame posts `painted` and `ready` (epoch ms) to the course
 * page, which keeps each frame's first of each (`window.got`, ms from its own navigation start). */
function watch(table) {
  if (window === top) {
    window.got = { painted: new Map(), ready: new Map() };
    addEventListener('message', (e) => {
      const m = e.data?.fourEmbeds;
      if (m && !got[m].has(e.source)) got[m].set(e.source, e.data.at - performance.timeOrigin);
    });
    window.all = (kind, n) => new Promise((done, fail) => {
      const t = setInterval(() => { if (got[kind].size >= n) { clearInterval(t); done([...got[kind].values()]); } }, 50);
      setTimeout(() => fail(new Error(`${got[kind].size} of ${n} frames ${kind} after 180 s`)), 180000);
    });
    return;
  }
  const post = (kind) => parent.postMessage({ fourEmbeds: kind, at: performance.timeOrigin + performance.now() }, '*');
  let painted = false, pending = false, ready = false;
  const visible = () => [...document.querySelectorAll(table)].some((t) => t.checkVisibility());
  const check = () => {
    // Looked at in the next frame: a table parsed before the stylesheets have no box (it does not
    // look visible) and a frame is not drawn before them; hidden (the HTML's page under the app's
    // own), a later change is looked at again.
    if (!painted && !pending && document.querySelector(table)) {
      pending = true;
      requestAnimationFrame(() => { pending = false; if (!painted && visible()) { painted = true; post('painted'); } });
    }
    if (!ready && document.documentElement.dataset.ready === 'true') { ready = true; post('ready'); }
  };
  addEventListener('load', check, true); // a stylesheet come in shows a table without a mutation
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
}

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const settings = [
  { name: 'desktop', loads: +desktopLoads, flags: [] },
  { name: 'school network', loads: +schoolLoads, flags: ['--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process,IsolateSandboxedIframes'], slow: true },
];
for (const s of settings.filter((s) => s.loads > 0)) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...FLAGS, ...s.flags] });
  const got = Object.fromEntries(names.map((p) => [p, { painted: [], ready: [] }]));
  let oopif;
  for (let i = 0; i < s.loads; i++) for (const p of names) {
    // Tall enough for the four frames: Chromium does not render a cross-origin frame out of sight.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 3000 } });
    const page = await ctx.newPage();
    if (s.slow) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    }
    await page.addInitScript(watch, TABLE);
    await page.goto(teacher + p, { waitUntil: 'commit' });
    // A load whose frames do not all report in 180 s is told and left out of the medians.
    const wait = (kind) => page.evaluate((kind) => all(kind, 4), kind).then((t) => Math.max(...t), (e) => console.log(`  ${s.name}, load ${i}, ${p}: ${e.message}`));
    const painted = await wait('painted');
    const ready = p === 'floor.html' || painted === undefined ? undefined : await wait('ready');
    if (painted !== undefined) got[p].painted.push(painted);
    if (ready !== undefined) got[p].ready.push(ready);
    // Out-of-process frames have a CDP session of their own.
    oopif ??= (await Promise.all(page.frames().slice(1).map((f) => ctx.newCDPSession(f).then(() => 1, () => 0)))).reduce((a, b) => a + b);
    await ctx.close();
  }
  await browser.close();
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const floor = med(got['floor.html'].painted);
  console.log(`${s.name} (${s.loads} loads each; frames out of process: ${oopif} of 4)`);
  for (const [k, e] of embeds.entries()) {
    const { painted, ready } = got[`course-${k}.html`];
    console.log(`  four of ${e}: painted ${med(painted).toFixed(0)} ms (${(med(painted) / floor).toFixed(2)}× the floor), data-ready ${med(ready).toFixed(0)} ms (${(med(ready) / floor).toFixed(2)}×)`);
  }
  console.log(`  four static copies (floor): painted ${floor.toFixed(0)} ms`);
  console.log(`  loads counted: ${names.map((p) => `${p} ${got[p].painted.length}`).join(', ')}`);
}
server.close();
