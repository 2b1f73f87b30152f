// Runs before the first paint (a blocking classic script, same-origin for the CSP). Sets
// <html data-theme> as the wasm will (theme= in the fragment or query, else the system's mode),
// so a page asked for dark never flashes light while its code loads; and if that code cannot
// load, says so in the loading line instead of leaving a blank page. Registers the service worker.
(() => {
  const fragment = location.hash.slice(1);
  const asked = new URLSearchParams(fragment.includes('=') ? fragment : '').get('theme')
    ?? new URLSearchParams(location.search).get('theme');
  const dark = asked === 'dark' || (asked !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  const failed = () => {
    const line = document.getElementById('boot-status');
    if (!line) return;
    line.setAttribute('role', 'alert');
    line.className = 'field-error';
    line.textContent = 'The explorer\u2019s code could not load. In a course page\u2019s frame its files need '
      + 'the header Access-Control-Allow-Origin: * (docs/teachers.md, \u201cHosting\u201d); else check the connection and reload.';
  };
  // A script or stylesheet that fails to load, or the wasm's fetch or compilation failing.
  addEventListener('error', (e) => { if (e.target instanceof HTMLScriptElement || e.target instanceof HTMLLinkElement) failed(); }, true);
  addEventListener('unhandledrejection', failed);
  // A while after the page is ready (starting it at once slowed the first seconds: measured), a
  // service worker keeps its files for the next visit, offline too (none in a sandboxed frame,
  // whose origin is opaque: there reading it throws; none in a SCORM package, whose files the
  // LMS serves and which has no sw.js).
  new MutationObserver((_, watch) => {
    watch.disconnect();
    if (document.querySelector('script[data-package]')) return;
    setTimeout(() => { try { navigator.serviceWorker.register('./sw.js').catch(() => {}); } catch {} }, 3000);
  }).observe(document.documentElement, { attributeFilter: ['data-ready'] });
})();
