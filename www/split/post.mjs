// Post-build step (www/post-build.mjs): puts the chunks that www/split/wasm-bindgen split off (.split/) beside
// the app, each through wasm-opt -Oz like the main module and named by its content's hash (so
// a cached chunk never meets another build), and points the split loader at them and at the
// main module's glue under its hashed name.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const dir = process.env.TRUNK_STAGING_DIR;
const glue = readdirSync(dir).find((f) => /^attention-explorer-[0-9a-f]+\.js$/.test(f));
const chunks = readdirSync('.split').filter((f) => f.endsWith('.wasm') && f !== 'attention-explorer.wasm').sort();
// A wasm-opt per core at once: each chunk's output depends on nothing but its input.
const waiting = [...chunks];
const optimise = promisify(execFile);
await Promise.all(Array.from({ length: availableParallelism() }, async () => {
  for (let file = waiting.shift(); file !== undefined; file = waiting.shift()) {
    const out = join(dir, file);
    if (process.env.TRUNK_PROFILE === 'release') {
      await optimise('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', join('.split', file), '-o', out]);
    } else {
      copyFileSync(join('.split', file), out);
    }
  }
}));
const renamed = [];
for (const file of chunks) {
  const out = join(dir, file);
  const hash = createHash('sha256').update(readFileSync(out)).digest('hex').slice(0, 16);
  const name = file.replace(/\.wasm$/, `-${hash}.wasm`);
  renameSync(out, join(dir, name));
  renamed.push([file, name]);
}
for (const file of readdirSync('.split').filter((f) => f.endsWith('.js'))) {
  let js = readFileSync(join('.split', file), 'utf8').replaceAll('"./attention-explorer.js"', `"./${glue}"`);
  for (const [from, to] of renamed) js = js.replaceAll(`"./${from}"`, `"./${to}"`);
  writeFileSync(join(dir, file), js);
}
