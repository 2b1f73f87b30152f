// Post-build step (www/post-build.mjs): moves Trunk's inline loader <script> into a file beside the wasm, so the
// page runs under `script-src 'self'` with no hash or nonce to keep in step with the build (and
// waits there for a snapshot www/boot.js fetches); and puts www/boot.js first in <head> (hashed
// like the loader), so the theme is set before paint, handing it Trunk's preload of the wasm
// (boot.js starts it, except in an embed showing its snapshot).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const page = join(dir, 'index.html');
const html = readFileSync(page, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/g;
const scripts = [...html.matchAll(inline)];
if (scripts.length !== 1) {
  throw new Error(`expected Trunk's one inline loader script in index.html, found ${scripts.length}`);
}
const [tag, trunks] = scripts[0];
// The app starts once a snapshot www/boot.js is fetching is on screen (or has failed): it then
// builds its page behind it (src/ui/prerendered.rs), never racing it.
const start = trunks.indexOf('const wasm = await init(');
if (start < 0) throw new Error("Trunk's loader no longer starts with `const wasm = await init(`");
const gate = `await new Promise((go) => {
  const root = document.documentElement;
  const fetched = () => !('fetching' in root.dataset);
  if (fetched()) return go();
  new MutationObserver((_, watch) => { if (fetched()) { watch.disconnect(); go(); } }).observe(root, { attributeFilter: ['data-fetching'] });
});
`;
const body = trunks.slice(0, start) + gate + trunks.slice(start);
const name = `loader-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(dir, name), body);
// Its comments stay in the source: the page downloads only the code.
const boot = readFileSync(new URL('./boot.js', import.meta.url), 'utf8').replace(/^\s*\/\/.*\n/gm, '');
const bootName = `boot-${createHash('sha256').update(boot).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(dir, bootName), boot);
const preloads = [...html.matchAll(/<link rel="preload" href="([^"]+\.wasm)"[^>]*>/g)];
if (preloads.length !== 1) throw new Error(`expected Trunk's one preload of the wasm in index.html, found ${preloads.length}`);
const [preload, wasm] = preloads[0];
writeFileSync(
  page,
  html
    .replace(tag, `<script type="module" src="./${name}"></script>`)
    .replace(preload, '')
    .replace('<head>', `<head>\n    <script src="./${bootName}" data-wasm="${wasm}"></script>`),
);
