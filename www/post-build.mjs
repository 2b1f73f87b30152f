// Trunk's post-build hook, one script so its steps run in order: the stylesheet and glue without
// their comments, the chunks beside the app, the loader out of the page (for the CSP), the one
// list of the build's files (build.json), then the service worker that keeps them.
await import('./minify.mjs');
await import('./split/post.mjs');
await import('./csp-loader.mjs');
await import('./manifest.mjs');
await import('./offline.mjs');
