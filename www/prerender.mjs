// `node www/prerender.mjs DIR RESULT`: the build program's step 6 (src/bin/attention-build/
// prerender.rs), release builds only: the opening page written into the HTML, so that a learner
// sees its tables before the wasm has arrived (issue 32). It is the app's
// own render: the built page opened in headless Chromium and its <main> taken in the first frame
// after the app mounts, the DOM the app itself paints first, so the app can take it over without
// a flash or a jump (src/ui/prerendered.rs carries over what was typed, scrolled and focused).
// The default page goes into index.html; each other preset into a file of its own, fetched by
// www/boot.js when a link asks for that preset; each preset in embed mode as its page without
// the steps and one file per step (boot.js fetches the steps a frame shows); the default page in
// each other language (the build wrote their files before), a file each beside the
// language's, fetched by boot.js for a visit in it. Inline styles (the
// cells' --heat) become rules
// of a stylesheet, since the strict Content-Security-Policy refuses style attributes in HTML.
// It writes the pages and says in RESULT what they are (their files and roles, the default
// page's <main>, the stylesheet): the build program writes index.html with them. Without
// Chromium it writes no RESULT, and the page opens with its loading line.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, normalize } from 'node:path';

const [dir, result] = process.argv.slice(2);
const CHROMIUM = '/usr/bin/chromium';
const say = (line) => console.log(`prerender: ${line}`);

/** Runs in the page before its scripts: keeps the app's <main> as it is in its first frame; an
 * embed's "Open in the full explorer" with the address it gets later (it comes with a chunk). */
function capture() {
  new MutationObserver((_, watch) => {
    const main = [...(document.body?.children ?? [])].find((e) => e.tagName === 'MAIN' && !e.id);
    if (!main) return;
    watch.disconnect();
    requestAnimationFrame(() => {
      // What the app set as properties is written as attributes, so the HTML holds it.
      for (const input of main.querySelectorAll('input, textarea')) {
        if (input.type === 'checkbox' || input.type === 'radio') input.toggleAttribute('checked', input.checked);
        else if (input.tagName === 'TEXTAREA') input.textContent = input.value;
        else input.setAttribute('value', input.value);
      }
      for (const option of main.querySelectorAll('option')) option.toggleAttribute('selected', option.selected);
      const frame = main.cloneNode(true);
      const open = main.querySelector('.open-full a');
      const done = () => {
        if (open && !open.href) return false;
        if (open) frame.querySelector('.open-full a').setAttribute('href', open.href);
        window.prerendered = frame.outerHTML;
        return true;
      };
      if (!done()) new MutationObserver((_, link) => done() && link.disconnect()).observe(open, { attributes: true });
    });
  }).observe(document, { childList: true, subtree: true });
}

async function render(browser, base, query, colorScheme) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(capture);
  await page.goto(base + query);
  await page.waitForFunction(() => typeof window.prerendered === 'string', null, { timeout: 60000 });
  const html = await page.evaluate(() => window.prerendered);
  await context.close();
  if (errors.length) throw new Error(`prerender: ${query || 'the default page'} logged ${errors.join('; ')}`);
  return html;
}

/** The presets the page offers, in its picker's order (the first is the default page's): the
 * core's, from the contract the build wrote beside the page. */
const { presets: PRESETS } = JSON.parse(readFileSync(join(dir, 'contract.json'), 'utf8'));

/** A static server of the staging folder, on a free port. */
function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8' };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

async function prerender(chromium) {
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const opening = await render(browser, base, '', 'light');
    const [first, ...others] = PRESETS;
    // One snapshot serves both themes and the first preset's own link: checked, not assumed.
    for (const [query, scheme] of [['', 'dark'], [`?preset=${first}`, 'light']]) {
      if ((await render(browser, base, query, scheme)) !== opening) {
        throw new Error(`prerender: the page at "${query}" in ${scheme} differs from the default page's first frame`);
      }
    }
    const pages = { [first]: opening };
    for (const name of others) pages[name] = await render(browser, base, `?preset=${name}`, 'light');
    // The default page in each language ("dog.fr").
    for (const file of readdirSync(join(dir, 'i18n'))) {
      const tag = file.replace(/-[0-9a-f]{16}\.txt$/, '');
      pages[`${first}.${tag}`] = await render(browser, base, `?lang=${tag}`, 'light');
    }
    // Each preset in embed mode with every step (the embed's default controls), cut into its
    // steps below. Both themes are one snapshot here too.
    for (const name of [first, ...others]) pages[`embed-${name}`] = await render(browser, base, `?embed=1&preset=${name}`, 'light');
    if ((await render(browser, base, `?embed=1&preset=${first}`, 'dark')) !== pages[`embed-${first}`]) {
      throw new Error('prerender: the embed in dark differs from the embed in light');
    }
    // Each as the build writes it, its inline styles gathered into one stylesheet's rules.
    const tool = await browser.newPage();
    let styles = [];
    const out = {};
    for (const [name, html] of Object.entries(pages)) {
      out[name] = await tool.evaluate(written, { html, name, styles, embed: name.startsWith('embed-') })
        .catch((e) => { throw new Error(`prerender: ${name}: ${e.message}`); });
      styles = out[name].styles;
    }
    return { pages: out, styles };
  } finally {
    await browser.close();
    server.close();
  }
}

/** Runs in a blank page of the browser, for its DOM: a captured <main> as the build writes it.
 * Without the views' empty placeholder comments (the app takes the snapshot over element by
 * element: an eighth less HTML to parse); each inline style as a rule keyed by `data-ps` (the
 * strict Content-Security-Policy refuses style attributes in HTML), `styles` being the rules so
 * far; named for boot.js and the app (`#prerendered`, `data-preset`). An embed's is cut into its
 * steps (`section.step`, one after the other in the page's order) and the rest, its shell, which
 * holds `<template data-steps>` where they go. */
function written({ html, name, styles, embed }) {
  const holder = document.createElement('template');
  holder.innerHTML = html;
  const main = holder.content.firstElementChild;
  const rules = new Map(styles);
  for (const element of [main, ...main.querySelectorAll('[style]')].filter((e) => e.hasAttribute('style'))) {
    const text = element.getAttribute('style');
    if (!rules.has(text)) rules.set(text, rules.size.toString(36));
    element.removeAttribute('style');
    element.dataset.ps = rules.get(text);
  }
  const comments = document.createTreeWalker(main, NodeFilter.SHOW_COMMENT);
  const empty = [];
  while (comments.nextNode()) if (comments.currentNode.data === '') empty.push(comments.currentNode);
  empty.forEach((comment) => comment.remove());
  main.id = 'prerendered';
  main.dataset.preset = name;
  // An embed's "Open in the full explorer" names this build's throwaway server: only its
  // fragment is kept (boot.js points it at the page the embed is on), so a build is the same
  // from one run to the next.
  for (const open of main.querySelectorAll('.open-full a[href]')) open.setAttribute('href', new URL(open.href).hash);
  const out = { styles: [...rules] };
  if (!embed) return { ...out, html: main.outerHTML };
  const steps = [...main.querySelectorAll('section.step')].filter((step) => !step.parentElement.closest('section.step'));
  if (steps.length === 0) throw new Error('the embed has no steps');
  if (steps.some((step, i) => i > 0 && step.previousElementSibling !== steps[i - 1])) throw new Error('the embed has more than its steps between them');
  const sections = steps.map((step) => [step.id.replace(/^step-/, ''), step.outerHTML]);
  const slot = document.createElement('template');
  slot.dataset.steps = '';
  steps[0].before(slot);
  steps.forEach((step) => step.remove());
  return { ...out, html: main.outerHTML, steps: sections };
}

const hashed = (prefix, text, ext) => `${prefix}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.${ext}`;

async function main() {
  let chromium;
  try {
    ({ chromium } = createRequire(join(process.cwd(), '/'))('playwright-core'));
  } catch {}
  if (!chromium || !existsSync(CHROMIUM)) {
    say(`no ${CHROMIUM} or playwright-core: the page is built without its first screen in the HTML (it shows its loading line until the wasm has arrived)`);
    return;
  }
  const { pages, styles } = await prerender(chromium);
  const [first, ...others] = Object.keys(pages);
  const files = { [first]: '' };
  // Each file written, with its role in the build's list (build.json).
  const written = [];
  const write = (name, text, role) => {
    writeFileSync(join(dir, name), text);
    written.push([name, role]);
  };
  for (const name of others) {
    // A language's opening page is the language's: kept offline once a visit in it fetched it.
    const language = name.match(/^[a-z-]+\.([A-Za-z-]+)$/)?.[1];
    const { html, steps } = pages[name];
    files[name] = hashed(language ? `i18n/prerendered-${language}` : `prerendered-${name}`, html, 'html');
    if (steps) {
      // An embed's frame fetches its page without the steps and the steps it shows, each its own
      // file (NAME-HASH-STEP.html): what a frame parses is the steps it asks for.
      write(files[name], html, 'embeds');
      for (const [step, section] of steps) write(files[name].replace(/\.html$/, `-${step}.html`), section, 'embeds');
      files[name] = { shell: files[name], steps: steps.map(([step]) => step) };
    } else {
      write(files[name], html, language ? 'language' : 'later');
    }
  }
  const css = styles.map(([text, key]) => `[data-ps="${key}"]{${text}}`).join('\n') + '\n';
  const cssName = hashed('prerendered', css, 'css');
  write(cssName, css, 'first');
  const integrity = `sha384-${createHash('sha384').update(css).digest('base64')}`;
  // `files` as the text of <html data-prerendered>, in the order the pages were made.
  writeFileSync(result, JSON.stringify({ files: JSON.stringify(files), style: [cssName, integrity], main: pages[first].html, written }));
  say(`the opening page of ${Object.keys(pages).join(', ')} (${styles.length} styles)`);
}

await main();
