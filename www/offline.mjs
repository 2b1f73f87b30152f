// Trunk post-build step: writes sw.js (from www/sw.js) with the list of the build's files, so
// that the service worker keeps them all, the code on demand included, on the first visit.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
// The page and what it loads; not the examples for teachers or the SCORM package's adapter.
const files = readdirSync(dir, { recursive: true })
  .filter((f) => /\.(wasm|js|css)$/.test(f) && !/^(sw|embed-example|scorm-adapter)\b/.test(f))
  .map((f) => `./${f.replaceAll('\\', '/')}`)
  .sort();
const version = createHash('sha256').update(files.join('\n')).update(readFileSync(join(dir, 'index.html'))).digest('hex').slice(0, 16);
const worker = readFileSync(new URL('./sw.js', import.meta.url), 'utf8')
  .replace('const FILES = [];', `const FILES = ${JSON.stringify(['./', ...files])};`)
  .replace("const VERSION = '';", `const VERSION = '${version}';`);
writeFileSync(join(dir, 'sw.js'), worker);
