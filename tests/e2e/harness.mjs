// Serves the built dist/ from a sub-path on 127.0.0.1 and opens it in headless Chromium; the
// helpers every test file shares (one of each: a test file defines only what it alone uses).
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after, afterEach } from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';

const root = fileURLToPath(new URL('../..', import.meta.url));
// DIST= another build (an older one, to see a new test fail there).
const dist = process.env.DIST ? join(root, process.env.DIST) : join(root, 'dist');
/** The app is served from here, to prove the build uses relative URLs. */
export const SUB_PATH = '/course/attention/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** The policy docs/teachers.md asks hosts to send, as the build wrote it beside the page
 * (core::formats::boot::contract_file); every page in these tests runs under it. */
export const CSP = JSON.parse(readFileSync(join(dist, 'contract.json'), 'utf8')).csp;

export async function startServer() {
  const server = createServer(async (req, res) => {
    // As a network that is down (set by a test): not even an error response.
    if (server.refusing) {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(SUB_PATH)) {
      res.writeHead(404).end();
      return;
    }
    const rel = normalize(url.pathname.slice(SUB_PATH.length) || 'index.html');
    try {
      const body = await readFile(join(dist, rel.startsWith('..') ? 'missing' : rel));
      res.writeHead(200, {
        'content-type': TYPES[extname(rel)] ?? 'application/octet-stream',
        'content-security-policy': CSP,
        // As GitHub Pages does: a sandboxed frame (an opaque origin) fetches the app cross-origin.
        'access-control-allow-origin': '*',
      }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}${SUB_PATH}` };
}

/** What the pages of the running test reported (console errors, page errors, dialogs, CSP
 * violations, foreign requests), one list per watched page; checked after each test. */
const watched = [];
/** Every page and context the running test's helpers made, closed after it whatever happened. */
const owned = [];

/** Serves dist/ and launches Chromium around a test file's tests: the returned object holds
 * `base` (the page's URL), `browser` and `server` once the `before` hook has run.
 *
 * After each test, pass or fail, every page and context it made through the helpers here
 * (`open`, `newPage`, `newContext`, `sandboxedPage`) is closed, so a test writes no `close()` of
 * its own and a failing assertion leaves nothing open; and the server serves again if the test
 * had cut it off. Then the test fails if any page it watched (every page `open` gave, and those
 * given to `watch`) logged a console error, threw, showed a dialog, broke the CSP or asked
 * another origin for anything. */
export function useBrowser() {
  const env = {};
  before(() => startBrowser(env));
  afterEach(async () => {
    assert.deepEqual(await cleanUp(env), [], 'console errors, page errors, dialogs, CSP violations or foreign requests');
  });
  after(() => stopBrowser(env));
  return env;
}

/** Serves dist/ and launches Chromium into `env` (`base`, `browser`, `server`), as `useBrowser`
 * does for tests; for a script, with `cleanUp` and `stopBrowser` by hand. */
export async function startBrowser(env = {}) {
  ({ server: env.server, base: env.base } = await startServer());
  env.browser = await launch();
  return env;
}

export async function stopBrowser(env) {
  await env.browser?.close();
  env.server?.close();
}

/** Closes every page and context the helpers made since the last call, lets the server serve
 * again, and returns what the watched pages reported (see `watch`). */
export async function cleanUp(env) {
  // What went wrong is read first: closing a page must not add to it or hide it.
  const problems = watched.splice(0).flatMap((errors) => errors);
  // Pages before the contexts that hold them; one that the test closed itself is skipped.
  for (const made of owned.splice(0).reverse()) await made.close().catch(() => {});
  if (env.server) env.server.refusing = false;
  return problems;
}

/** Headless Chromium with the flags every test uses, and `extra` ones. */
export async function launch(extra = []) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extra],
  });
}

/** A page of its own (a course page holding frames, or a page whose failure to load is the
 * point), closed after the test; nothing it logs fails the test unless it is given to `watch`. */
export async function newPage(env, options = {}) {
  const page = await env.browser.newPage(options);
  owned.push(page);
  return page;
}

/** A browser context (its own storage, colour scheme or viewport), closed after the test with
 * every page in it. */
export async function newContext(env, options = {}) {
  const context = await env.browser.newContext(options);
  owned.push(context);
  return context;
}

/** A course page holding the app at `src` in a sandboxed frame (an opaque origin, as an LMS or a
 * CMS embeds it), closed after the test. With `watched`, the page is watched from the start (see
 * `watch`) and `errors` is its list. */
export async function sandboxedPage(env, src, { width = 800, height = 700, watched = false } = {}) {
  const course = await newPage(env);
  const errors = watched ? watch(course, src) : undefined;
  await course.setContent(`<iframe src="${src}" sandbox="allow-scripts" width="${width}" height="${height}"></iframe>`);
  return { course, errors };
}

/** Collects the page's console errors, page errors and dialogs, and its requests to origins other
 * than `url`'s, into the returned list, which `useBrowser` checks after the test. */
export function watch(page, url) {
  const errors = [];
  watched.push(errors);
  const origin = new URL(url).origin;
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('dialog', (dialog) => { errors.push(`dialog: ${dialog.message()}`); dialog.dismiss(); });
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) errors.push(`request to ${req.url()}`);
  });
  return errors;
}

/** The screens the tests and screenshots use. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Opens the page in `browser` (or in a context) and watches it (see `watch`; CSP violations are
 * logged as console errors); waits for `ready` to show, and for the app, for
 * `<html data-ready>`. The page is closed after the test. The settings open folded under their
 * summary; unless `folded`, they are unfolded as a learner's first click would (most tests use
 * them; the opening's own tests keep them folded). */
export async function open(browser, url, viewport = DESKTOP, ready = '[data-matrix="weights"]', { folded = false } = {}) {
  const page = await browser.newPage({ viewport });
  owned.push(page);
  const errors = watch(page, url);
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) =>
    console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`)));
  await page.goto(url);
  await page.waitForSelector(ready);
  // The app says when every table and figure it opens with is there (labs fetched after the first
  // paint); before, what `ready` found may be the opening page written into the HTML, without the
  // app or its API. A page of the app has its boot script (an LMS's page around it has not).
  if (await page.$('script[data-code]')) await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  if (!folded) await unfold(page);
  return { page, errors };
}

/** Opens the folded settings (and the contents), as a click on their summaries does. */
export async function unfold(page) {
  await page.$$eval('details.settings, details.contents', (all) => all.forEach((d) => { d.open = true; }));
}

/** What each lab shows once its body is drawn (the labs draw when they come into view). */
const LAB_READY = {
  'lab-sqrt-dk': '[data-stat="var_none"]',
  'lab-mask': '[data-stat="renormalized_ok"]',
  'lab-train': '[data-action="train-step"]',
  'lab-order': '[data-stat="order_max_diff"]',
  'lab-kv-cache': '[data-stat="cache_max_diff"]',
  'lab-flash': '[data-stat="flash_max_diff"]',
  'lab-heads': '[data-stat="heads_lab"]',
};

/** Scrolls the lab `id` (as `lab-train`) into view and waits until its body is drawn. Once the
 * page is ready: before, the lab found may be the hidden one of the opening page in the HTML
 * (a reload returns at the load event, which does not wait for the app). */
export async function showLab(page, id) {
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await page.$eval(`#${id}`, (lab) => lab.scrollIntoView());
  await page.waitForSelector(LAB_READY[id]);
}

/** `open`, then `showLab`. */
export async function openLab(browser, url, id, viewport) {
  const opened = await open(browser, url, viewport);
  await showLab(opened.page, id);
  return opened;
}

/** Waits until the page has stopped moving: its scroll position and height the same over
 * `frames` frames running (the walk scrolls to a stop again on the next frames while the
 * sections around it render, and a section's real height comes only once it is near the screen). */
export async function settled(page, frames = 8) {
  await page.waitForFunction(([key, frames]) => {
    const now = `${scrollX},${scrollY},${document.documentElement.scrollHeight}`;
    if (window.settling?.key !== key || window.settling.now !== now) window.settling = { key, now, frames: 0 };
    return ++window.settling.frames > frames;
  }, [Math.random(), frames], { polling: 'raf' });
}

/** Reads `read()` until `done` holds of what it read, or `timeout` ms pass, and returns the last
 * value read for the test to assert on: a wait on a condition where `waitForFunction` cannot see
 * it (numbers from several frames, or a comparison best shown as a diff when it fails). */
export async function eventually(read, done, { timeout = 10_000, every = 50 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** Waits until the page's link holds a model and has stopped changing for a second: the page
 * writes it (and the saved work) once changes pause (0.4 s), and a burst of clicks on a busy
 * machine may pause midway. */
export async function linkSettled(page) {
  await page.waitForFunction((key) => {
    const now = location.hash;
    if (window.linkWatch?.key !== key || window.linkWatch.now !== now) window.linkWatch = { key, now, since: performance.now() };
    return now.includes('m=') && performance.now() - window.linkWatch.since > 1000;
  }, Math.random(), { polling: 100 });
}

/** Waits until the page has written its state into the URL (after its short delay), and into
 * something other than `previous`. */
export const written = (page, previous = '') =>
  page.waitForFunction((before) => location.hash.includes('m=') && location.hash !== before, previous);

/** The page's saved state, and its trace, through the scripting API. */
export const state = (page) => page.evaluate(() => window.attentionExplorer.state());
export const trace = (page) => page.evaluate(() => window.attentionExplorer.trace());

/** A figure the page states (`data-stat`): its data-value, or its text when it has none. */
export const stat = (page, name) => page.locator(`[data-stat="${name}"]`).first().evaluate((e) => e.dataset.value ?? e.textContent);
/** `stat` as a number. */
export const numberStat = async (page, name) => Number(await stat(page, name));

/** The data-value of every cell of a matrix, as rows of numbers. */
export async function matrixValues(page, name, head = 0) {
  return page.$$eval(`table[data-matrix="${name}"][data-head="${head}"] tbody tr, table[data-matrix="${name}"]:not([data-head]) tbody tr`, (rows) =>
    rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value === '-inf' ? -Infinity : td.dataset.value))));
}

/** A cell of a head's matrix, or of a matrix outside the heads when `head` is null. */
export const cellSelector = (name, row, col, head = 0) =>
  `table[data-matrix="${name}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`} td[data-row="${row}"][data-col="${col}"]`;

/** The data-value of every cell of a lab's table (`data-lab-matrix`), as rows of numbers. */
export async function labMatrix(page, name) {
  return page.$$eval(`table[data-lab-matrix="${name}"] tbody tr`, (rows) =>
    rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
}

/** Pastes `text` into the cell `selector`, as the clipboard would. */
export function paste(page, selector, text) {
  return page.evaluate(([selector, text]) => {
    const data = new DataTransfer();
    data.setData('text', text);
    document.querySelector(selector).dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, [selector, text]);
}

/** How many pixels wider than the screen the page is (0 or less when nothing overflows). */
export const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

export const projectRoot = root;

/** A seeded saved state of `tokens` words and the given sizes, made by the page itself (the
 * controls, then `attentionExplorer.state()`), so it is exactly what the core draws. */
export async function seededState(page, tokens, dims, causal = false) {
  await page.fill('[data-control="sentence"]', Array.from({ length: tokens }, (_, i) => `w${i}`).join(' '));
  for (const [control, value] of Object.entries(dims)) await page.fill(`[data-control="${control}"]`, String(value));
  if (causal) await page.check('[data-control="causal"]');
  return page.evaluate(() => window.attentionExplorer.state());
}

/** The core's own numbers for a saved state (JSON text), or a preset's, from the native command. */
export function coreTrace(state, preset = null) {
  const args = preset ? ['--preset', preset] : ['--state', '-'];
  const out = execFileSync('cargo', ['run', '--quiet', '--bin', 'attention-trace', '--', ...args], { cwd: root, input: state ?? '', maxBuffer: 1 << 28 });
  return JSON.parse(out.toString());
}

const num = (v) => (v === '-inf' ? -Infinity : v === 'nan' ? NaN : v);

/** Asserts two lists of rows agree to 1e-12 (relative), with −∞ exact. */
export function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  actual.forEach((row, i) => {
    assert.equal(row.length, expected[i].length, `${what}[${i}]: columns`);
    row.forEach((a, j) => {
      const [x, e] = [num(a), num(expected[i][j])];
      assert.ok(x === e || Math.abs(x - e) <= 1e-12 * Math.max(1, Math.abs(e)), `${what}[${i}][${j}]: page ${x}, core ${e}`);
    });
  });
}

/** Asserts two traces (as `attention-trace --format json` writes them) agree everywhere. */
export function assertSameTrace(actual, expected) {
  assert.deepEqual(actual.tokens, expected.tokens);
  assert.deepEqual(actual.token_ids, expected.token_ids);
  assertClose(actual.embedded, expected.embedded, 'embedded');
  assertClose(actual.output, expected.output, 'output');
  for (const name of ['positioned', 'concatenated']) {
    assert.equal(name in actual, name in expected, `${name}: in both or neither`);
    if (name in expected) assertClose(actual[name], expected[name], name);
  }
  assert.equal(actual.heads.length, expected.heads.length, 'heads');
  actual.heads.forEach((head, h) => {
    assert.deepEqual(Object.keys(head).sort(), Object.keys(expected.heads[h]).sort(), `head ${h}: matrices`);
    for (const name of Object.keys(head)) assertClose(head[name], expected.heads[h][name], `heads[${h}].${name}`);
  });
}


/** Where the tests save their screenshots: `name` in tests/e2e/output/. */
export function output(name) {
  mkdirSync(join(root, 'tests', 'e2e', 'output'), { recursive: true });
  return join(root, 'tests', 'e2e', 'output', name);
}

/** Renders every step, as a reader scrolling by sees them: steps out of sight skip rendering
 * (`content-visibility: auto`) and are measured by estimate. Through the CSSOM: the CSP refuses a
 * <style> tag, as it should. */
export async function renderEveryStep(page) {
  await page.$$eval('.step', (steps) => steps.forEach((s) => s.style.setProperty('content-visibility', 'visible')));
}

/** Saves a picture of `target` (a locator, or a page for the whole page). Every step is rendered
 * first (`renderEveryStep`): estimated heights would move the target while it is captured. With
 * `everyStep: false`, the screen as it is (the walk's stops, pictured as a reader sees them). */
export async function picture(target, path, { everyStep = true, ...options } = {}) {
  const page = typeof target.page === 'function' ? target.page() : target;
  if (everyStep) await renderEveryStep(page);
  await target.screenshot({ path, ...options });
}

/** Whether this machine has Python 3 with PyTorch. */
export function pythonWithTorch() {
  return spawnSync('python3', ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
}

/** Runs a "Copy as PyTorch" script with `print(json.dumps(expression))` after it and returns what
 * it printed, parsed; `files` (name → bytes) are written beside it. Python alone checks the
 * script is valid Python first; without PyTorch the test is skipped with a notice (through `t`)
 * and this returns null. */
export async function runWithTorch(t, script, expression, files = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pytorch-'));
  const file = join(dir, 'explorer.py');
  await writeFile(file, `${script}\nimport json\nprint(json.dumps(${expression}))\n`);
  // Files the script reads beside it (a large model's numbers).
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
  execFileSync('python3', ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read())', file]);
  if (!pythonWithTorch()) {
    t.skip('PyTorch is not installed: the script was checked as Python but not run');
    return null;
  }
  const out = execFileSync('python3', [file], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 }).trimEnd().split('\n');
  return JSON.parse(out[out.length - 1]);
}

/** The entries of a zip whose entries are stored (as the SCORM writer writes them). */
export function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    assert.equal(view.getUint32(at, true), 0x02014b50);
    assert.equal(view.getUint16(at + 10, true), 0, 'stored');
    const size = view.getUint32(at + 20, true);
    const [nameLength, extra, comment] = [28, 30, 32].map((o) => view.getUint16(at + o, true));
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    files.set(name, bytes.subarray(data, data + size));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}
