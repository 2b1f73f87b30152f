// The snippet's script (the Embed dialog writes it under each frame; tests/one_home.rs checks
// them equal): fits each explorer's frame to its content as it changes, and keeps a learner's
// progress in exercises here, to give back when the frame opens again.
if (!window.attentionExplorerFrames) {
  window.attentionExplorerFrames = true;
  addEventListener('message', (e) => {
    const frame = [...document.querySelectorAll('iframe[data-attention-explorer]')].find((f) => f.contentWindow === e.source);
    if (!frame) return;
    const kept = 'attention-explorer:progress:' + frame.src;
    if (e.data?.type === 'attention-explorer:resize') frame.style.height = e.data.height + 'px';
    try {
      if (e.data?.type === 'attention-explorer:result' && e.data.progress) localStorage[kept] = e.data.progress;
      if (e.data?.type === 'attention-explorer:ready' && localStorage[kept])
        e.source.postMessage({ type: 'attention-explorer:restore-progress', progress: localStorage[kept] }, '*');
    } catch {} // storage blocked: the progress lasts as long as the frame
  });
}
