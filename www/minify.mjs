// Post-build step (www/post-build.mjs), release builds only: the stylesheet, the wasm-bindgen
// glue and the split loader lose their comments and indentation (3.4 KB of the first download,
// gzipped), and
// index.html's integrity hashes follow. Trunk 0.21's --minify touches only the HTML, and drops
// the <head> tag the steps after this one write into.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const trims = [
  // CSS has only block comments, and newlines are whitespace like any other.
  [/^style-[0-9a-f]+\.css$/, (css) => css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s*\n\s*/g, '\n')],
  // The glue's and the split loader's comments are whole lines (// or /** … */); they have no
  // template literals to cut into.
  [/^(attention-explorer-[0-9a-f]+|__wasm_split)\.js$/, (js) => js.replace(/^\s*\/\*\*[\s\S]*?\*\/\n/gm, '').replace(/^\s*\/\/.*\n/gm, '').replace(/^[ \t]+/gm, '')],
];
if (process.env.TRUNK_PROFILE === 'release') {
  const page = join(dir, 'index.html');
  let html = readFileSync(page, 'utf8');
  for (const file of readdirSync(dir)) {
    const trim = trims.find(([name]) => name.test(file))?.[1];
    if (!trim) continue;
    const before = readFileSync(join(dir, file));
    const after = trim(before.toString('utf8'));
    writeFileSync(join(dir, file), after);
    const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
    // The split loader is imported by the glue, without an integrity hash.
    if (file === '__wasm_split.js') continue;
    const old = sri(before);
    if (!html.includes(old)) throw new Error(`index.html has no integrity ${old} for ${file}`);
    html = html.replace(old, sri(after));
  }
  writeFileSync(page, html);
}
