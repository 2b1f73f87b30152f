// Serves the built dist/ from a sub-path on 127.0.0.1 and opens it in headless Chromium.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
/** The app is served from here, to prove the build uses relative URLs. */
export const SUB_PATH = '/course/attention/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

export async function startServer() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(SUB_PATH)) {
      res.writeHead(404).end();
      return;
    }
    const rel = normalize(url.pathname.slice(SUB_PATH.length) || 'index.html');
    try {
      const body = await readFile(join(dist, rel.startsWith('..') ? 'missing' : rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}${SUB_PATH}` };
}

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Opens the page and collects console errors and page errors. */
export async function open(browser, url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  await page.waitForSelector('table[data-matrix="weights"]');
  return { page, errors };
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
