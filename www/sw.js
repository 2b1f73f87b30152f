// The service worker: keeps the app's files so that it opens, and fetches its code on demand,
// offline after a first visit. The build (src/bin/attention-build/worker.rs) puts before this
// its VERSION, the CONTRACT (the core's words: the message it answers), the FILES kept at install (the page, and what it fetches first and later) and the
// files kept ON_USE: the trained models' files and code and the languages' texts, not kept at
// install (45 and 98 MB; six languages a visit needs one of), but kept once fetched, so that they
// open offline after their first use (a new build drops them).
const PREFIX = `attention-explorer ${registration.scope} `;
const CACHE = PREFIX + VERSION;
const path = (file) => new URL(file, registration.scope).pathname;
// Every file of the build but the page is named by its content (or in a folder that is): a kept
// copy is the one asked for.
const KEPT = new Set(FILES.filter((f) => f !== './').map(path));
const KEPT_ON_USE = new Set(ON_USE.map(path));

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
  if (e.data?.type !== CONTRACT.messages.keep || !Array.isArray(e.data.urls)) return;
  const wanted = e.data.urls.filter((u) => typeof u === 'string' && u.startsWith(registration.scope) && KEPT_ON_USE.has(new URL(u).pathname));
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(wanted.map((u) => c.match(u)
    .then((r) => r ?? fetch(u).then((f) => (f.ok ? c.put(u, f) : undefined)))
    .catch(() => {})))));
});
addEventListener('fetch', (e) => {
  const { request } = e;
  if (request.method !== 'GET' || !request.url.startsWith(registration.scope)) return;
  const kept = () => caches.match(request.mode === 'navigate' ? './' : request, { cacheName: CACHE });
  const asked = new URL(request.url).pathname;
  if (KEPT_ON_USE.has(asked)) {
    e.respondWith(kept().then((r) => r ?? fetch(request).then((fetched) => {
      if (fetched.ok) {
        const copy = fetched.clone();
        e.waitUntil(caches.open(CACHE).then((c) => c.put(request, copy)));
      }
      return fetched;
    })));
  } else if (KEPT.has(asked)) {
    e.respondWith(kept().then((r) => r ?? fetch(request)));
  } else {
    // The page, and what another build named: from the network while there is one, so it
    // matches the newest build.
    e.respondWith(fetch(request).catch(() => kept().then((r) => r ?? Response.error())));
  }
});
