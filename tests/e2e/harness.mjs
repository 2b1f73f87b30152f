// Serves the built dist/ from a sub-path on 127.0.0.1 and opens it in headless Chromium.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after, afterEach } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
/** The app is served from here, to prove the build uses relative URLs. */
export const SUB_PATH = '/course/attention/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** The policy docs/teachers.md asks hosts to send; every page in these tests runs under it. */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";

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

/** Every page `open` gave out since the last test ended, with what went wrong on it. */
const opened = [];

/** Serves dist/ and launches Chromium around a test file's tests: the returned object holds
 * `base` (the page's URL) and `browser` once the `before` hook has run. A test fails if any page
 * it opened logged a console error, threw, showed a dialog, broke the CSP or asked another
 * origin for anything. */
export function useBrowser() {
  const env = {};
  before(async () => {
    ({ server: env.server, base: env.base } = await startServer());
    env.browser = await launch();
  });
  afterEach(() => {
    const problems = opened.splice(0).flatMap(({ errors }) => errors);
    assert.deepEqual(problems, [], 'console errors, page errors, dialogs, CSP violations or foreign requests');
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Opens the page and collects console errors, page errors, dialogs, CSP violations and requests
 * to other origins (checked after each test by `useBrowser`); waits for `ready` to show, and for the
 * app, for `<html data-ready>`. */
export async function open(browser, url, viewport = { width: 1280, height: 900 }, ready = '[data-matrix="weights"]') {
  const page = await browser.newPage({ viewport });
  const errors = [];
  opened.push({ page, errors });
  const origin = new URL(url).origin;
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('dialog', (dialog) => { errors.push(`dialog: ${dialog.message()}`); dialog.dismiss(); });
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) errors.push(`request to ${req.url()}`);
  });
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) =>
    console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`)));
  await page.goto(url);
  await page.waitForSelector(ready);
  // The app says when every table and figure it opens with is there (labs fetched after the first paint).
  if (ready === '[data-matrix="weights"]') await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  return { page, errors };
}

/** Waits until the page's link holds a model and has stopped changing for a second: the page
 * writes it once changes pause (0.4 s), and a burst of clicks on a busy machine may pause midway. */
export async function linkSettled(page) {
  await page.waitForFunction(() => {
    const now = location.hash;
    if (now !== window.lastHash) [window.lastHash, window.hashSince] = [now, performance.now()];
    return now.includes('m=') && performance.now() - window.hashSince > 1000;
  }, null, { polling: 100 });
}

/** The data-value of every cell of a matrix, as rows of numbers. */
export async function matrixValues(page, name, head = 0) {
  return page.$$eval(`table[data-matrix="${name}"][data-head="${head}"] tbody tr, table[data-matrix="${name}"]:not([data-head]) tbody tr`, (rows) =>
    rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value === '-inf' ? -Infinity : td.dataset.value))));
}

/** A cell of a head's matrix, or of a matrix outside the heads when `head` is null. */
export const cellSelector = (name, row, col, head = 0) =>
  `table[data-matrix="${name}"]${head === null ? ':not([data-head])' : `[data-head="${head}"]`} td[data-row="${row}"][data-col="${col}"]`;

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


/** Saves a picture of `target` (a locator, or a page for the whole page). Steps out of sight
 * skip rendering (`content-visibility: auto`), so their estimated heights would move the target
 * while it is captured: every step is rendered first, as a reader scrolling by would see it. */
export async function picture(target, path, options = {}) {
  const page = typeof target.page === 'function' ? target.page() : target;
  // Through the CSSOM: the CSP refuses a <style> tag, as it should.
  await page.$$eval('.step', (steps) => steps.forEach((s) => s.style.setProperty('content-visibility', 'visible')));
  await target.screenshot({ path, ...options });
}
