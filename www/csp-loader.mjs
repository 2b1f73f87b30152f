// Post-build step (www/post-build.mjs): moves Trunk's inline loader <script> into a file beside the wasm, so the
// page runs under `script-src 'self'` with no hash or nonce to keep in step with the build (and
// waits there for a snapshot www/boot.js fetches, importing the glue only then); and puts
// www/boot.js first in <head> (hashed like the loader), so the theme is set before paint, handing
// it Trunk's preloads of the app's code (boot.js starts them, except in an embed showing its
// steps: there once their files are in).
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
// The glue imported after the gate, not before it: a static import would fetch it (and its
// snippets) at once, in an embed too.
const imports = /^\s*import init, \* as bindings from '([^']+)';\n/;
const glue = trunks.match(imports);
if (!glue) throw new Error("Trunk's loader no longer begins with `import init, * as bindings from '…';`");
const body = `${trunks.slice(glue[0].length, start)}${gate}const bindings = await import('${glue[1]}');
const init = bindings.default;
${trunks.slice(start)}`;
const name = `loader-${createHash('sha256').update(body).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(dir, name), body);
// Its comments stay in the source: the page downloads only the code.
const boot = readFileSync(new URL('./boot.js', import.meta.url), 'utf8').replace(/^\s*\/\/.*\n/gm, '');
const bootName = `boot-${createHash('sha256').update(boot).digest('hex').slice(0, 16)}.js`;
writeFileSync(join(dir, bootName), boot);
// Trunk's preloads (the glue, its snippets and the wasm), each as its attributes.
const preloads = [...html.matchAll(/<link rel="(?:module)?preload" [^>]*>/g)].map(([link]) => link);
if (!preloads.some((link) => /href="[^"]+\.wasm"/.test(link)) || !preloads.some((link) => link.includes(glue[1]))) {
  throw new Error(`expected Trunk's preloads of the glue and the wasm in index.html, found ${preloads.join(' ')}`);
}
const code = preloads.map((link) => Object.fromEntries([...link.matchAll(/([\w-]+)="([^"]*)"/g)]
  .map(([, name, value]) => [name, value])
  // Chromium ignores integrity on a preload for fetch, and says so in the console.
  .filter(([name]) => !(name === 'integrity' && link.includes('as="fetch"')))));
writeFileSync(
  page,
  preloads.reduce((h, link) => h.replace(link, ''), html)
    .replace(tag, `<script type="module" src="./${name}"></script>`)
    .replace('<head>', `<head>\n    <script src="./${bootName}" data-code="${JSON.stringify(code).replaceAll('"', '&quot;')}"></script>`),
);
