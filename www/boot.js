// Runs before the first paint (a blocking classic script, same-origin for the CSP). Sets
// <html data-theme> as the wasm will (theme= in the fragment or query, else the system's mode),
// so a page asked for dark never flashes light while its code loads; shows the opening page
// written at build time when the visit opens it (an embed's steps, for an embed); and if that code cannot
// load, says so in the loading line instead of leaving a blank page. Starts fetching the app's
// code; registers the service worker.
(() => {
  // The core's words this script needs: the steps, the languages, where work is kept, the
  // messages, the opening page's rule (core::formats::boot, written by the build before this
  // script). tests/boot_rule.rs checks this script decides as the core does.
  const CONTRACT = JSON.parse(document.getElementById('contract').textContent);
  const fragment = location.hash.slice(1);
  const inFragment = new URLSearchParams(fragment.includes('=') ? fragment : '');
  // A key's values in the order the page reads them, the fragment's after the query's.
  const linked = (key) => [...new URLSearchParams(location.search).getAll(key), ...inFragment.getAll(key)];
  // The theme as the page reads it: the last it knows.
  const themes = linked('theme');
  const known = (theme) => CONTRACT.themes.includes(theme);
  const asked = themes.filter(known).pop();
  const dark = asked === 'dark' || (asked !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  // The visit's language, as the page decides it (Lang::choose, src/core/i18n/lang.rs): the
  // link's lang=, else the learner's choice kept here, else the browser's first that the page
  // has. Another than English is on <html lang dir> at once, its file is fetched beside the
  // code, the loading line is in it, and the English opening page is not shown.
  const languages = JSON.parse(root.dataset.languages || '{}');
  const { offered, pseudo, near, excluded, rtl, default: english } = CONTRACT.languages;
  const lang = (() => {
    const exact = (tag) => [...offered, pseudo].find((t) => t.toLowerCase() === tag?.toLowerCase());
    const nearest = (tag) => {
      const [base, ...rest] = tag.toLowerCase().split(/[-_]/);
      return rest.some((part) => excluded[base]?.includes(part)) ? undefined : near[base];
    };
    let stored = null;
    try { stored = localStorage.getItem(CONTRACT.storage.lang); } catch {}
    return exact(linked('lang').pop())
      ?? exact(stored) ?? navigator.languages.map(nearest).find(Boolean) ?? english;
  })();
  if (lang !== english) {
    root.lang = lang;
    root.dir = rtl.includes(lang) ? 'rtl' : 'ltr';
    const file = languages[lang]?.file;
    if (file) {
      const link = document.createElement('link');
      Object.entries({ rel: 'preload', as: 'fetch', crossorigin: 'anonymous', href: file }).forEach(([k, v]) => link.setAttribute(k, v));
      document.head.append(link);
    }
    // Once the HTML is parsed (not DOMContentLoaded, which waits for the app's module scripts).
    document.addEventListener('readystatechange', () => {
      const { title, heading, loading } = languages[lang] ?? {};
      if (title) document.title = title;
      const line = document.getElementById('boot-status');
      if (line && loading) line.textContent = loading;
      const name = document.querySelector('#boot h1');
      if (name && heading) name.textContent = heading;
    }, { once: true });
  }
  // The preloads of the app's code (its glue, its snippets and the wasm), handed to this script by
  // the build (src/bin/attention-build/page.rs), and whether they wait for a snapshot's files: see
  // fetchCode.
  const code = JSON.parse(document.currentScript.dataset.code ?? '[]');
  // The opening page's live module (src/ui/live/), a fifth of the app's code: see fetchLive.
  const live = JSON.parse(document.currentScript.dataset.live ?? 'null');
  // An embed showing its steps fetches its code once they are painted: see fetchCode.
  let fetchLater = false;
  // The opening page fetched, once shown (or failed).
  let opened = null;
  // The opening page written at build time (www/prerender.mjs), when this visit opens it: no
  // link asking for more than a preset (and a theme), no saved work to bring back. The default
  // page is in index.html (not in the embeds' entry page, embed.html), an embed's steps in its
  // page of its own (embed-dog-weights.html); another is fetched. The app takes it over once it
  // mounts.
  try {
    const snapshots = JSON.parse(root.dataset.prerendered || '{}');
    const params = new URLSearchParams(location.search);
    inFragment.forEach((value, key) => params.append(key, value));
    const { free, page: pageKeys, embed: embedKeys, embedControls } = CONTRACT.opening;
    free.forEach((key) => params.delete(key));
    const keys = [...params.keys()];
    const inline = Object.keys(snapshots).find((name) => snapshots[name] === '');
    const [first] = CONTRACT.presets;
    // An embed (its default controls) of a preset: the preset's embed snapshot, keeping the steps
    // it asks for (`steps=`, or the older `view=`).
    // As the app reads them: a key given twice, or a theme it does not know, gets a message there.
    const plain = new Set(keys).size === keys.length && themes.every(known);
    const embed = params.get('embed') === '1' || (params.has('view') && !params.has('embed'));
    if (embed) keepEarlyMessages();
    const askedSteps = (params.get('view') ?? params.get('steps'))?.split(',').filter(Boolean);
    const plainEmbed = plain && embed && keys.every((k) => embedKeys.includes(k))
      && !(params.has('view') && params.has('steps')) && [null, embedControls].includes(params.get('controls'))
      && (askedSteps === undefined || (askedSteps.length > 0 && askedSteps.every((step) => CONTRACT.steps.includes(step))));
    let wanted = !plain ? undefined : embed ? (plainEmbed ? `embed-${params.get('preset') ?? first}` : undefined)
      : keys.length === 0 ? first : keys.length === 1 && pageKeys.includes(keys[0]) ? params.get(keys[0]) : undefined;
    let saved = null;
    // The work the app would bring back instead (src/ui/share.rs, work_key).
    try { saved = localStorage.getItem(embed ? CONTRACT.storage.embedWork + location.search : CONTRACT.storage.work); } catch {}
    // In another language, the default page's own in it (www/prerender.mjs), if the build made it.
    if (lang !== english) wanted = wanted === first ? `${wanted}.${lang}` : undefined;
    if (wanted in snapshots && saved === null) {
      // Laid out for it from the first paint (the loading line floats), so nothing moves when it shows.
      root.dataset.snapshot = wanted;
      // The boxes scrolled in it, whose scroll the app keeps (src/ui/prerendered.rs).
      addEventListener('scroll', (e) => { if (e.target instanceof Element && e.target.closest('#prerendered')) e.target.dataset.scrolled = ''; }, { capture: true, passive: true });
      // A first click on a cell selects its number, so typing replaces it, as in the live page
      // (src/ui/matrix/cell_input.rs); a click in the cell being edited places the caret.
      addEventListener('mousedown', (e) => {
        const cell = e.target instanceof HTMLInputElement && e.target.closest('#prerendered td') ? e.target : null;
        if (cell && cell !== document.activeElement) { e.preventDefault(); cell.focus(); cell.select(); }
      }, true);
      // An embed's page of its own holds its steps (embed-dog-weights.html): shown as they are
      // when they are the ones asked, else fetched as on any page.
      const here = embed && holds(snapshots[wanted], askedSteps);
      if (wanted !== inline) {
        if (!here) root.dataset.fetching = '';
        fetchLater = embed;
        opened = (here ? Promise.resolve() : embed ? embedPage(snapshots[wanted], askedSteps) : file(snapshots[wanted]))
          .then((html) => parsed().then(() => {
            const shown = document.getElementById('prerendered');
            const loading = document.getElementById('boot');
            // Not once the app is there (it removes the loading line).
            if (loading) {
              if (!here) {
                if (shown) shown.outerHTML = html;
                else loading.insertAdjacentHTML('afterend', html);
              }
              if (embed) embedSteps(askedSteps);
            } else delete root.dataset.snapshot;
          }))
          .catch(() => { delete root.dataset.snapshot; })
          .finally(() => { delete root.dataset.fetching; });
      }
    }
  } catch {}

  // A page showing its opening page starts its code once that page is painted (the loader waits
  // while `data-code-later` is there): on a desktop the code arrives before the first frame, and
  // starting it there delayed the tables' first frame by the app's start
  // (docs/developers/benchmarks.md).
  // The opening page's live module first, alone on the line (a slow phone's), then the app's
  // code: the loader too waits for it.
  const liveFetched = 'snapshot' in root.dataset && !fetchLater ? fetchLive() : Promise.resolve();
  if (!fetchLater) liveFetched.then(fetchCode);
  if ('snapshot' in root.dataset) {
    root.dataset.codeLater = '';
    (opened ?? parsed()).then(() => afterPaint(() => {
      (fetchLater ? fetchLive().then(fetchCode) : liveFetched).then(() => { delete root.dataset.codeLater; });
    }));
  }

  /** The opening page made live by a small module of its own while the app's code arrives: a
   * number typed reaches every later table at once (src/ui/live/). Fetched at once, started once
   * the opening page is painted (as the app's code is, so as not to delay its first frame); if it
   * fails, the page waits for the app as before, saying nothing. Resolves once its files are in
   * (or have failed). */
  function fetchLive() {
    if (!live) return Promise.resolve();
    const fetched = Promise.all([import(live.glue), fetch(live.wasm).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject()))]);
    fetched.then(([module, wasm]) => (opened ?? parsed()).then(() => new Promise(afterPaint))
      .then(() => document.getElementById('prerendered') && module.default({ module_or_path: wasm }))
      .then(() => {
        // Its numbers answer now: the loading line says so (unless it already says a failure).
        const line = document.getElementById('boot-status');
        if (line && document.querySelector('#prerendered[data-live]') && line.getAttribute('role') !== 'alert') {
          // Kept for the module to put back if the page then waits for the app (a setting changed).
          line.dataset.loading = line.textContent;
          line.textContent = languages[lang]?.live ?? CONTRACT.words.live;
        }
      }))
      .catch(() => {});
    return fetched.catch(() => {});
  }

  /** The app's code, fetched at once, except in an embed showing its steps: there once they
   * are painted. Four embeds of a course page on a slow network would otherwise share it with
   * four downloads of the code, and show their tables a second later; on a desktop, four
   * compiles would delay the last frame's tables (docs/developers/benchmarks.md). */
  function fetchCode() {
    for (const attributes of code) {
      const link = document.createElement('link');
      Object.entries(attributes).forEach(([name, value]) => link.setAttribute(name, value));
      document.head.append(link);
    }
  }

  /** Once the HTML is parsed: not DOMContentLoaded, which waits for the app's module scripts. */
  function parsed() {
    return document.readyState !== 'loading' ? Promise.resolve()
      : new Promise((done) => document.addEventListener('readystatechange', done, { once: true }));
  }

  /** Calls `then` once this frame has painted: after its next animation frame, or after 300 ms
   * (a frame out of view gets none). */
  function afterPaint(then) {
    let done = false;
    const once = () => { if (!done) { done = true; then(); } };
    requestAnimationFrame(() => setTimeout(once));
    setTimeout(once, 300);
  }

  /** A course page's messages sent before the embed answers them (its page's tools come as a
   * chunk, after its tables) are kept here and handed to it, in their order, once it says it
   * listens (src/ui/embed/messages.rs): a course page may post as soon as the frame loads. */
  function keepEarlyMessages() {
    const early = [];
    const keep = (e) => {
      if (typeof e.data?.type !== 'string' || !e.data.type.startsWith(CONTRACT.messages.prefix)) return;
      e.stopImmediatePropagation();
      early.push(e);
    };
    addEventListener('message', keep);
    addEventListener(CONTRACT.messages.listening, () => {
      removeEventListener('message', keep);
      for (const { data, origin, source } of early) dispatchEvent(new MessageEvent('message', { data, origin, source }));
    }, { once: true });
  }

  function file(name) {
    return fetch(`./${name}`).then((r) => (r.ok ? r.text() : Promise.reject()));
  }

  /** Of an embed's `steps` (its preset's, in the page's order), those `asked` (all when undefined). */
  function shownSteps(steps, asked) {
    return steps.filter((name) => asked === undefined || asked.includes(name));
  }

  /** Whether this page holds the embed's steps `asked` already: an embed's page of its own
   * (`here`, the steps the build wrote into it, src/bin/attention-build/page.rs). */
  function holds({ steps, here }, asked) {
    return here !== undefined && String(here) === String(shownSteps(steps, asked));
  }

  /** An embed's page written at build time: its shell with the steps `asked` that this model
   * has (all when undefined) in the page's order, as the app shows them; each step its own file
   * (www/prerender.mjs), all fetched at once. Refused when it has none of them. */
  async function embedPage({ shell, steps }, asked) {
    const shown = shownSteps(steps, asked);
    if (shown.length === 0) throw new Error('no such step');
    const [page, ...sections] = await Promise.all([shell, ...shown.map((name) => shell.replace(/\.html$/, `-${name}.html`))].map(file));
    return page.replace('<template data-steps=""></template>', sections.join(''));
  }

  /** The embed's steps numbered as the app numbers them, its "Open in the full explorer" on this
   * page, and its height told to the course page. */
  function embedSteps(asked) {
    const main = document.getElementById('prerendered');
    main.querySelectorAll(':scope > section.step').forEach((section, i) => { section.querySelector('.step-number').firstChild.textContent = String(i + 1); });
    const open = main.querySelector('.open-full a');
    if (open) {
      // Written at build time as the model's fragment alone: on this page (at the embed's first
      // step when it names steps).
      const fragment = new URLSearchParams(open.getAttribute('href').replace(/^#/, ''));
      if (asked) fragment.set('at', main.querySelector(':scope > section.step').id.slice('step-'.length));
      // From an embeds' page (embed.html, embed-dog-weights.html), its folder's (contract::full_page_path).
      const file = location.pathname.slice(location.pathname.lastIndexOf('/') + 1);
      const embedsPage = file === CONTRACT.opening.embedPage || (file.startsWith('embed-') && file.endsWith('.html'));
      open.href = `${new URL(embedsPage ? '.' : location.pathname, location.href).href}#${fragment}`;
    }
    // As the app's own report (src/ui/embed/messages.rs) does, until the app takes over and reports itself.
    if (parent !== window) {
      let last = -1;
      const report = new ResizeObserver(() => {
        if (!document.getElementById('prerendered')) return report.disconnect();
        const height = document.body.offsetHeight;
        if (height !== last) parent.postMessage({ type: CONTRACT.messages.resize, height: (last = height) }, '*');
      });
      report.observe(document.body);
    }
  }

  // The smallest module with a SIMD instruction: the build uses WebAssembly's SIMD (.cargo/config.toml).
  const simd = typeof WebAssembly === 'object' && WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]));
  const failed = () => {
    const line = document.getElementById('boot-status');
    if (!line) return;
    line.setAttribute('role', 'alert');
    line.className = 'field-error';
    line.textContent = simd ? 'The explorer\u2019s code could not load. In a course page\u2019s frame its files need '
      + 'the header Access-Control-Allow-Origin: * (docs/teachers.md, \u201cHosting\u201d); else check the connection and reload.'
      : 'This browser is too old for the explorer\u2019s code (it needs WebAssembly SIMD: Chrome 91, Firefox 89, Safari 16.4 or later).';
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
    setTimeout(() => {
      try {
        navigator.serviceWorker.register('./sw.js').catch(() => {});
        // What was fetched before the worker kept the page (a trained model opened on a first
        // visit), and what is fetched until it does: the worker keeps it too (sw.js).
        const keep = (urls) => navigator.serviceWorker.ready.then((r) => r.active?.postMessage({ type: CONTRACT.messages.keep, urls }));
        keep(performance.getEntriesByType('resource').map((e) => e.name));
        new PerformanceObserver((list) => { if (!navigator.serviceWorker.controller) keep(list.getEntries().map((e) => e.name)); })
          .observe({ type: 'resource' });
      } catch {}
    }, 3000);
  }).observe(document.documentElement, { attributeFilter: ['data-ready'] });
})();
