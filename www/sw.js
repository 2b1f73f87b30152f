// The service worker: keeps the app's files so that it opens, and fetches its code on demand,
// offline after a first visit. www/offline.mjs writes FILES and VERSION at each build.
const FILES = [];
const VERSION = '';
const PREFIX = `attention-explorer ${registration.scope} `;
const CACHE = PREFIX + VERSION;

addEventListener('install', (e) => e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES))));
// A new build's files replace the old build's.
addEventListener('activate', (e) => e.waitUntil(caches.keys().then((keys) =>
  Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))));
addEventListener('fetch', (e) => {
  const { request } = e;
  if (request.method !== 'GET' || !request.url.startsWith(registration.scope)) return;
  if (request.mode === 'navigate') {
    // The page from the network while there is one (it names the newest build's files).
    e.respondWith(fetch(request).catch(() => caches.match('./', { cacheName: CACHE }).then((kept) => kept ?? Response.error())));
  } else {
    // Every other file's name holds its content's hash: a kept one is the one asked for.
    e.respondWith(caches.match(request, { cacheName: CACHE }).then((kept) => kept ?? fetch(request)));
  }
});
