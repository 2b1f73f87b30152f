// Runs before the first paint (a blocking classic script, same-origin for the CSP): sets
// <html data-theme> as the wasm will (theme= in the fragment or query, else the system's mode),
// so a page asked for dark never flashes light while its code loads.
(() => {
  const fragment = location.hash.slice(1);
  const asked = new URLSearchParams(fragment.includes('=') ? fragment : '').get('theme')
    ?? new URLSearchParams(location.search).get('theme');
  const dark = asked === 'dark' || (asked !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
})();
