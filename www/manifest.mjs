// Post-build step (www/post-build.mjs), after the chunks and the loader are in place: the one
// list of the build's files, `build.json`, by when the page needs each. The service worker
// (www/offline.mjs), the SCORM packer (ui/author.rs) and tests/size.mjs all read it.
//   first     what the page fetches before its first screen
//   later     the chunks, fetched when their part of the page is first needed, and the
//             opening pages of the presets but the first (www/prerender.mjs)
//   embeds    the presets' embeds written at build time: fetched by an embed's frame (whose
//             opaque origin has no service worker), so not kept offline
//   worker    the service worker, registered once the page is ready
//   teachers  the examples for course pages and the SCORM package's adapter: never by the page
//   model     the trained models' files and code: when the learner opens one (kept once fetched)
//   language  a language's texts (www/languages.mjs) and opening page (www/prerender.mjs): when
//             a visit is in it (kept once fetched)
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const when = (name) => (/^i18n\//.test(name) ? 'language'
  : /^models\/|^split_(pretrained|language)_panel-/.test(name) ? 'model'
  : /^prerendered-embed-.*\.html$/.test(name) ? 'embeds'
  : /^(split|chunk)_.*\.wasm$|^prerendered-.*\.html$/.test(name) ? 'later'
  : name === 'sw.js' ? 'worker'
    : /^(embed-example|scorm-adapter)\b/.test(name) ? 'teachers' : 'first');
const manifest = { first: [], later: [], embeds: [], worker: [], teachers: [], model: [], language: [] };
for (const file of readdirSync(dir, { recursive: true }).map((f) => f.replaceAll('\\', '/')).sort()) {
  if (/\.(wasm|js|css|safetensors|gguf)$|^prerendered-.*\.html$|^i18n\/.*\.(txt|html)$/.test(file)) manifest[when(file)].push(file);
}
// The service worker is written after this list (it holds it), under this name.
if (!manifest.worker.includes('sw.js')) manifest.worker.push('sw.js');
writeFileSync(join(dir, 'build.json'), `${JSON.stringify(manifest, null, 1)}\n`);
