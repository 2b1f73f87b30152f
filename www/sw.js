// The service worker: keeps the app's files so that it opens, and fetches its code on demand,
// offline after a first visit. www/offline.mjs writes FILES and VERSION at each build.
const FILES = [];
const VERSION = '';
const PREFIX = `attention-explorer ${registration.scope} `;
const CACHE = PREFIX + VERSION;
// A name with its content's hash (Trunk's and www/split/post.mjs's; Trunk's drops leading zeros):
// a kept copy is the one asked for.
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css)$/;
// The trained models' files and code (build.json's "model"), and the languages' texts ("language"):
// not kept at install (45 and 98 MB; six languages a visit needs one of), but kept once fetched, so
// that they open offline after their first use; a new build drops them.
const ON_USE = /\/models\/|\/split_(pretrained|language)_panel-|\/i18n\//;

// From the server, not the browser's HTTP cache (which may hold an older page).
addEventListener('install', (e) => e.waitUntil(caches.open(CACHE)
  .then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: 'reload' }))))));
// A new build's files replace the old build's; the page that installed it is kept by it at once
// (a first visit too: the trained model opened there is kept).
addEventListener('activate', (e) => e.waitUntil(caches.keys().then((keys) =>
  Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
  .then(() => clients.claim())));
// What the page fetched before this worker kept it (boot.js lists them): a trained model's file
// and code are kept as if fetched through it (from the browser's HTTP cache, most often).
addEventListener('message', (e) => {
  if (e.data?.type !== 'attention-explorer:keep' || !Array.isArray(e.data.urls)) return;
  const wanted = e.data.urls.filter((u) => typeof u === 'string' && u.startsWith(registration.scope) && ON_USE.test(new URL(u).pathname));
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(wanted.map((u) => c.match(u)
    .then((r) => r ?? fetch(u).then((f) => (f.ok ? c.put(u, f) : undefined)))
    .catch(() => {})))));
});
addEventListener('fetch', (e) => {
  const { request } = e;
  if (request.method !== 'GET' || !request.url.startsWith(registration.scope)) return;
  const kept = () => caches.match(request.mode === 'navigate' ? './' : request, { cacheName: CACHE });
  const path = new URL(request.url).pathname;
  if (ON_USE.test(path)) {
    e.respondWith(kept().then((r) => r ?? fetch(request).then((fetched) => {
      if (fetched.ok) {
        const copy = fetched.clone();
        e.waitUntil(caches.open(CACHE).then((c) => c.put(request, copy)));
      }
      return fetched;
    })));
  } else if (HASHED.test(path)) {
    e.respondWith(kept().then((r) => r ?? fetch(request)));
  } else {
    // The page and the files whose names stay from build to build (__wasm_split.js, the
    // snippets): from the network while there is one, so they match the newest build.
    e.respondWith(fetch(request).catch(() => kept().then((r) => r ?? Response.error())));
  }
});
