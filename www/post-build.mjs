// Trunk's post-build hook, one script so its steps run in order: the chunks beside the app (and
// their loader, __wasm_split.js), the stylesheet, glue and split loader without their comments,
// the trained model's file, the page's loader out of the page (for the CSP), the languages' files
// (listed on the page), the opening page written into the HTML (and in each language), the one
// list of the build's files (build.json), then the service worker that keeps them.
await import('./split/post.mjs');
await import('./minify.mjs');
await import('./pack-model.mjs');
await import('./csp-loader.mjs');
await import('./languages.mjs');
await import('./prerender.mjs');
await import('./manifest.mjs');
await import('./offline.mjs');
