// Trunk's post-build hook, one script so its steps run in order: the chunks beside the app, the
// loader out of the page (for the CSP), then the service worker's list of every file.
await import('./split/post.mjs');
await import('./csp-loader.mjs');
await import('./offline.mjs');
