// SCORM 1.2 adapter, shipped in the SCORM package the exercise maker writes (src/core/formats/scorm.rs).
// It finds the LMS's API object as the SCORM 1.2 runtime says (this window's parents, then the
// opener's), starts the session and resumes the attempt from cmi.suspend_data, reports each
// exercise result the page posts (score 0-100; once every exercise's result is final, passed at
// or above the teacher's pass mark, its script tag's data-pass-mark, else failed; incomplete
// until then), keeps the progress in cmi.suspend_data, and finishes when the page closes.
(() => {
  const passMark = Number(document.currentScript?.dataset.passMark ?? 100);
  const find = (win) => {
    for (let hops = 0; win && hops < 16; hops++) {
      try {
        if (win.API) return win.API;
      } catch {
        return null; // another origin's window
      }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  };
  const api = find(window) || (window.opener && find(window.opener));
  if (!api) return;
  api.LMSInitialize('');
  api.LMSSetValue('cmi.core.score.min', '0');
  api.LMSSetValue('cmi.core.score.max', '100');
  if (api.LMSGetValue('cmi.core.lesson_status') === 'not attempted') api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
  api.LMSCommit('');
  // The attempt so far (a relaunch): handed to the page once it listens.
  const resumed = api.LMSGetValue('cmi.suspend_data');
  let done = false;
  // Once LMSFinish is called the LMS takes no more calls (a result posted as the page unloads).
  let ended = false;
  const report = () => {
    if (ended) return;
    const page = window.attentionExplorer;
    const results = page?.results?.() ?? [];
    if (!results.length) return;
    const score = Math.round((100 * results.reduce((sum, r) => sum + r.score, 0)) / results.length);
    done = results.every((r) => r.finished);
    api.LMSSetValue('cmi.core.score.raw', String(score));
    api.LMSSetValue('cmi.core.lesson_status', done ? (score >= passMark ? 'passed' : 'failed') : 'incomplete');
    // SCORM 1.2 keeps at most 4096 characters here.
    const progress = page.progress?.() ?? '';
    if (progress.length <= 4096) api.LMSSetValue('cmi.suspend_data', progress);
    api.LMSCommit('');
  };
  addEventListener('message', (e) => {
    if (e.source !== window) return;
    if (e.data?.type === 'attention-explorer:result' && e.data.exercise !== undefined) report();
  });
  // The page says it listens once its code has run (a message to its parent, here itself).
  new MutationObserver((_, watch) => {
    watch.disconnect();
    if (resumed) window.attentionExplorer?.restoreProgress?.(resumed);
    report();
  }).observe(document.documentElement, { attributeFilter: ['data-ready'] });
  const finish = () => {
    if (ended) return;
    report();
    ended = true;
    // An attempt left before its end is resumed at the next launch.
    api.LMSSetValue('cmi.core.exit', done ? '' : 'suspend');
    api.LMSFinish('');
  };
  addEventListener('pagehide', finish);
  addEventListener('beforeunload', finish);
})();
