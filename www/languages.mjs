// Post-build step (www/post-build.mjs): each language's texts (www/i18n/<tag>.json) as the page
// reads them (the core's `ship`: a line per text in the page's order, no names and no JSON,
// written by `attention-trace --ship-language`), named by their content's hash (the service worker keeps a fetched one, never a
// stale one), and listed on <html data-languages> for www/boot.js and the page
// (src/ui/lang/picker.rs) with the words boot.js shows before the code arrives (the tab's title,
// the loading line's). English is compiled into the page and has no file.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const source = new URL('./i18n/', import.meta.url);
const files = {};
mkdirSync(join(dir, 'i18n'), { recursive: true });
for (const name of readdirSync(source).filter((f) => f.endsWith('.json')).sort()) {
  const path = new URL(name, source);
  const texts = JSON.parse(readFileSync(path, 'utf8'));
  const text = execFileSync('cargo', ['run', '--quiet', '--bin', 'attention-trace', '--', '--ship-language', path.pathname], { encoding: 'utf8' }).replace(/\n$/, '');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = `i18n/${name.replace(/\.json$/, '')}-${hash}.txt`;
  writeFileSync(join(dir, file), text);
  files[name.replace(/\.json$/, '')] = { file, title: texts['page.tab_title'], heading: texts['page.title'], loading: texts['page.loading'] };
}
const page = join(dir, 'index.html');
const html = readFileSync(page, 'utf8');
// The opening tag as written (index.html), before www/prerender.mjs adds to it.
const root = '<html lang="en"';
if (!html.includes(root)) throw new Error(`index.html has no ${root}>`);
const listed = JSON.stringify(files).replaceAll('&', '&amp;').replaceAll("'", '&#39;');
writeFileSync(page, html.replace(root, `${root} data-languages='${listed}'`));
