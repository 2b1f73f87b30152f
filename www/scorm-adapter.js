// SCORM 1.2 adapter, shipped in the SCORM package the exercise maker writes (src/core/formats/scorm.rs).
// It finds the LMS's API object as the SCORM 1.2 runtime says (this window's parents, then the
// opener's), starts the session, reports each exercise result the page posts (score 0-100,
// passed when every exercise is right, else incomplete), and finishes when the page closes.
(() => {
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
  const report = () => {
    const results = window.attentionExplorer?.results?.() ?? [];
    if (!results.length) return;
    const score = Math.round((100 * results.reduce((sum, r) => sum + r.score, 0)) / results.length);
    api.LMSSetValue('cmi.core.score.raw', String(score));
    api.LMSSetValue('cmi.core.lesson_status', results.every((r) => r.correct) ? 'passed' : 'incomplete');
    api.LMSCommit('');
  };
  addEventListener('message', (e) => {
    if (e.source === window && e.data?.type === 'attention-explorer:result') report();
  });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    report();
    api.LMSFinish('');
  };
  addEventListener('pagehide', finish);
  addEventListener('beforeunload', finish);
})();
