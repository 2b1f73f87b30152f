// The page's loader, a file beside it (the strict Content-Security-Policy allows no inline
// script). Once the opening page www/boot.js is fetching is on screen (or has failed), and
// boot.js no longer holds the code back (until the opening page or an embed's steps are painted), it imports the
// app's code, named by the build on boot.js's <script data-app>, and starts it: the app then
// builds its page behind that snapshot (src/ui/prerendered.rs), never racing it.
await new Promise((go) => {
  const root = document.documentElement;
  const fetched = () => !('fetching' in root.dataset) && !('codeLater' in root.dataset);
  if (fetched()) return go();
  new MutationObserver((_, watch) => { if (fetched()) { watch.disconnect(); go(); } }).observe(root, { attributeFilter: ['data-fetching', 'data-code-later'] });
});
// Imported only now, not before: a static import would fetch the glue and its snippets at once,
// in an embed too.
const { glue, wasm } = JSON.parse(document.querySelector('script[data-app]').dataset.app);
const bindings = await import(glue);
await bindings.default({ module_or_path: wasm });
