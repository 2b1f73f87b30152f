// The parts of the page that are wasm chunks of their own, fetched on demand: for each, how a
// visit asks for it and what shows once it is in (tests/e2e/on_demand.test.mjs checks them,
// on_demand_time.mjs times them).
/** What the page is to show once a part's chunk is in, and how a visit asks for that part. */
export const PARTS = {
  // The page's tools (the scripting API, the link kept up to date), as the page starts.
  split_page_tools: { shows: 'html[data-ready="true"]' },
  // The contents and the settings, under their folded summaries, once the page is painted.
  split_pipeline_nav: { shows: 'nav.pipeline' },
  split_settings_panel: { shows: '[data-control="precision"]' },
  split_sqrt_dk_lab: { shows: '#lab-sqrt-dk [data-control="lab_dk"]' },
  split_mask_lab: { shows: '#lab-mask [data-stat="renormalized_ok"]' },
  split_train_lab: { near: '#lab-train', shows: '[data-action="train-step"]' },
  split_order_lab: { near: '#lab-order', shows: '[data-action="order-shuffle"]' },
  split_kv_cache_lab: { near: '#lab-kv-cache', shows: '[data-action="decode-step"]' },
  split_flash_lab: { near: '#lab-flash', shows: '[data-action="flash-step"]' },
  split_heads_lab: { near: '#lab-heads', shows: '[data-action="open-two-heads"]' },
  split_embed_dialog: { click: '[data-action="embed"]', shows: '[data-control="embed-step"]' },
  split_import_panel: { click: '[data-action="import-torch"]', shows: '[data-action="import-torch-apply"]' },
  split_pytorch_panel: { click: '[data-action="copy-pytorch"]', shows: 'pre[data-export="pytorch"]' },
  split_author_panel: { click: '[data-action="author"]', shows: '[data-action="author-ask"]' },
  split_positions_body: { select: ['[data-control="positions"]', 'sinusoidal'], shows: '#step-positions table[data-matrix]' },
  split_save_panel: { click: '.save summary', shows: '[data-control="state"]' },
  // Draws a figure and offers it: what shows is the download.
  split_figure_saver: { click: 'figure:has(table[data-matrix="weights"]) [data-action="download-svg"]', download: true },
  // Then it fetches the model itself (tests/e2e/pretrained.test.mjs).
  split_pretrained_panel: { click: '[data-action="load-pretrained"]', shows: '[data-stat="pretrained-progress"], [data-view="model"]' },
  // Its file is held back here (tests/e2e/decoder.test.mjs opens it): the chunk is what counts.
  split_language_panel: { click: '[data-action="load-decoder"]', shows: '[data-stat="decoder-progress"]' },
};
