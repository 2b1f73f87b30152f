// Post-build step (www/post-build.mjs): writes sw.js (from www/sw.js) with the files the page
// fetches, first and later (build.json's lists), so that the service worker keeps them all,
// the code on demand included, on the first visit.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const { first, later } = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8'));
const files = [...first, ...later].map((f) => `./${f}`).sort();
const version = createHash('sha256').update(files.join('\n')).update(readFileSync(join(dir, 'index.html'))).digest('hex').slice(0, 16);
const worker = readFileSync(new URL('./sw.js', import.meta.url), 'utf8')
  .replace('const FILES = [];', `const FILES = ${JSON.stringify(['./', ...files])};`)
  .replace("const VERSION = '';", `const VERSION = '${version}';`);
writeFileSync(join(dir, 'sw.js'), worker);
