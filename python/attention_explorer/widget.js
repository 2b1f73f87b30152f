// Explorer's view: the kernel's copy of the page in a sandboxed frame in embed mode (as the Embed
// dialog's snippet frames it), its postMessage API relayed to the widget's model
// (docs/developers/scripting-api.md).
// allow-same-origin keeps the frame's own origin (the kernel's port, on the other loopback name:
// cross-site to the notebook), so the browser's cache serves the wasm once per kernel.
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-downloads';
// Longer models go to the page in a message once it has opened.
const MAX_STATE_IN_ADDRESS = 60000;

/** JSON with sorted keys: the page and Python may write a state's fields in different orders. */
function canonical(value) {
  return JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/** JupyterLab and Notebook 7 set data-jp-theme-light on <body>; null elsewhere. */
function notebookDark() {
  const light = document.body.dataset.jpThemeLight;
  return light === undefined ? null : light === 'false';
}

function address(model) {
  const url = new URL(model.get('_url'), location.href);
  // The other loopback name than the notebook's: then the frame sees none of Jupyter's cookies
  // (cookies ignore ports), even with allow-same-origin.
  if (model.get('_kernel_files')) {
    if (url.hostname === '127.0.0.1' && location.hostname === '127.0.0.1') url.hostname = 'localhost';
    else if (url.hostname === 'localhost' && location.hostname === 'localhost') url.hostname = '127.0.0.1';
  }
  url.searchParams.set('embed', '1');
  if (model.get('steps').length) url.searchParams.set('steps', model.get('steps').join(','));
  if (model.get('controls')) url.searchParams.set('controls', model.get('controls'));
  const dark = notebookDark();
  url.searchParams.set('theme', model.get('theme') || (dark === null ? 'auto' : dark ? 'dark' : 'light'));
  if (model.get('lang')) url.searchParams.set('lang', model.get('lang'));
  for (const [key, value] of Object.entries(model.get('exercises'))) url.searchParams.set(key, value);
  const state = JSON.stringify(model.get('state'));
  url.hash = state.length <= MAX_STATE_IN_ADDRESS ? 'state=' + encodeURIComponent(state) : '';
  return url.href;
}

function render({ model, el }) {
  // The start of every message the page posts or answers (the core's, in contract.json).
  const P = model.get('_prefix');
  let frame = null;
  let fromFrame = null; // canonical JSON of the state the page last reported (null: not yet)
  let inAddress = null; // canonical JSON of the model's state the page opened with, if it fit
  let heard = false;
  let nextId = 1;
  const loads = new Set();
  const note = document.createElement('p');
  note.dataset.explorerNote = '';
  note.setAttribute('role', 'alert');
  note.style.cssText = 'margin:4px 0;font:13px sans-serif;color:var(--jp-warn-color0, #b45309)';

  // A new element for each page shown: its contentWindow tells this page's messages from a
  // replaced page's late ones (one element keeps its WindowProxy across navigations).
  const open = () => {
    const next = document.createElement('iframe');
    const src = address(model);
    // A page of the notebook's own origin (a proxy URL) must not have allow-same-origin: with
    // allow-scripts it could lift its own sandbox.
    const own = new URL(src).origin === location.origin;
    next.setAttribute('sandbox', own ? SANDBOX.replace(' allow-same-origin', '') : SANDBOX);
    next.src = src;
    inAddress = src.includes('#state=') ? canonical(model.get('state')) : null;
    next.title = 'Attention Explorer';
    next.dataset.attentionExplorer = '';
    next.style.cssText = `display:block;width:100%;border:0;height:${frame ? frame.style.height : model.get('height') + 'px'}`;
    if (frame) frame.replaceWith(next);
    else el.prepend(next);
    frame = next;
    fromFrame = null;
    loads.clear();
  };
  open();

  // No word from the page: the browser cannot reach the files (a remote kernel's 127.0.0.1, a
  // stopped kernel, an old copy at a pinned URL). Say so rather than leave a blank box.
  const silence = setTimeout(() => {
    if (heard) return;
    note.textContent = `The explorer did not answer from ${new URL(frame.src).origin}. ` + (model.get('_kernel_files')
      ? 'This browser cannot reach the kernel\'s files (a remote kernel, or one that stopped?): pass ' +
        'Explorer(url=...) or set ATTENTION_EXPLORER_URL to a copy of the page this browser can open.'
      : 'Is the page served at that address (Explorer(url=...) or ATTENTION_EXPLORER_URL), from a build as new as this package?');
    el.append(note);
  }, model.get('_silence_ms'));

  const post = (message) => frame.contentWindow?.postMessage({ ...message, type: P + message.type }, '*');
  const load = (state) => {
    const id = nextId++;
    loads.add(id);
    post({ type: 'load', state, id });
  };
  const same = (state) => canonical(state) === fromFrame;

  const onMessage = (e) => {
    if (!frame || e.source !== frame.contentWindow || typeof e.data?.type !== 'string' || !e.data.type.startsWith(P)) return;
    const data = e.data;
    switch (data.type.slice(P.length)) {
      case 'resize':
        frame.style.height = `${Math.ceil(data.height)}px`;
        break;
      case 'state': {
        const first = fromFrame === null;
        if (!heard) { heard = true; note.remove(); }
        fromFrame = canonical(data.state);
        // On opening, the model's state wins (it was set from Python) unless the page opened
        // with it: then what differs is the learner's edit, typed before the page's first report
        // (its scripting API comes just after its tables). Then the learner's edits, except
        // while the page is still taking Python's latest (its answers to the loads before).
        const opened = inAddress !== null && canonical(model.get('state')) === inAddress;
        if (first && !opened && !same(model.get('state'))) load(model.get('state'));
        else if (!loads.size && !same(model.get('state'))) { model.set('state', data.state); model.save_changes(); }
        break;
      }
      case 'result':
        if (loads.delete(data.id)) {
          // Refused by a page of another version (a pinned url=): Python gets back what it shows.
          if (data.error) {
            note.textContent = `The explorer refused the state from Python: ${data.error}`;
            el.append(note);
            if (fromFrame !== null) model.set('state', JSON.parse(fromFrame));
          }
          model.set('error', data.error ?? '');
          model.save_changes();
        } else if (data.exercise !== undefined) {
          model.send({ event: 'result', result: data });
        }
        break;
    }
  };
  window.addEventListener('message', onMessage);

  const onState = () => {
    if (fromFrame !== null && !same(model.get('state'))) load(model.get('state'));
  };
  model.on('change:state', onState);
  const reopen = () => open();
  for (const name of ['steps', 'controls', 'theme', 'lang', 'exercises']) model.on(`change:${name}`, reopen);

  // The notebook's theme switched: the page reads theme= once, so it opens again in the new one.
  const themeWatch = new MutationObserver(() => {
    if (!model.get('theme') && address(model).split('#')[0] !== frame.src.split('#')[0]) open();
  });
  themeWatch.observe(document.body, { attributes: true, attributeFilter: ['data-jp-theme-light'] });

  return () => {
    window.removeEventListener('message', onMessage);
    model.off('change:state', onState);
    for (const name of ['steps', 'controls', 'theme', 'lang', 'exercises']) model.off(`change:${name}`, reopen);
    themeWatch.disconnect();
    clearTimeout(silence);
  };
}

export default { render };
