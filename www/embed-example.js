// Fits each explorer's frame to its content: the explorer posts its height whenever it changes.
addEventListener('message', (e) => {
  if (e.data?.type !== 'attention-explorer:resize') return;
  for (const frame of document.querySelectorAll('iframe[data-attention-explorer]'))
    if (frame.contentWindow === e.source) frame.style.height = e.data.height + 'px';
});
