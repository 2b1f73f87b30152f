// End-to-end: today's variants (issue 33). Grouped-query heads and a source sentence typed into
// the page give the trace attention-trace computes for the same state; a shared key is one
// matrix wherever it is typed; refusals name their field and keep the model; undo and a reload
// keep them; the KV cache and FlashAttention labs give the page's own numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, showLab, numberStat, coreTrace, assertSameTrace, linkSettled, state, trace, labMatrix, assertClose, cellSelector, runWithTorch } from './harness.mjs';

const env = useBrowser();

test('grouped-query heads: one shared key wherever it is typed, equal to the core, kept by undo and a reload', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.fill('[data-control="heads"]', '4');
  await page.waitForFunction(() => window.attentionExplorer.state().heads.length === 4);
  await page.fill('[data-control="kv_heads"]', '2');
  await page.waitForFunction(() => window.attentionExplorer.state().kv_heads === 2);
  let s = await state(page);
  assert.equal(s.kv.length, 2);
  assert.ok(!('w_key' in s.heads[1]));
  assertSameTrace(await trace(page), coreTrace(JSON.stringify(s)));
  // Shown once: head 1's W_key is head 0's.
  assert.ok(await page.$('[data-shared="w_key"][data-head="1"][data-from="0"]'));
  assert.equal(await page.$('table[data-matrix="w_key"][data-head="1"]'), null);
  assert.ok(await page.$('table[data-matrix="w_key"][data-head="2"]'));
  const [d_k, d_v] = [s.kv[0].w_key[0].length, s.kv[0].w_value[0].length];
  assert.equal(await numberStat(page, 'kv_bytes_per_token'), 2 * 2 * (d_k + d_v));
  // A number typed into the shared W_key is every head of the group's.
  await page.fill(`${cellSelector('w_key', 0, 0, 0)} input`, '0.75');
  await page.press(`${cellSelector('w_key', 0, 0, 0)} input`, 'Enter');
  await page.waitForFunction(() => window.attentionExplorer.state().kv[0].w_key[0][0] === 0.75);
  const t = await trace(page);
  assert.deepEqual(t.heads[1].keys, t.heads[0].keys);
  assert.notDeepEqual(t.heads[2].keys, t.heads[0].keys);
  // A number of KV heads that does not divide the heads is named, and the model kept.
  await page.fill('[data-control="kv_heads"]', '3');
  await page.waitForSelector('[data-control="kv_heads"][aria-invalid="true"]');
  assert.match(await page.textContent('#kv_heads-error'), /kv_heads must divide the 4 heads \(1, 2, 4\), not 3; still using 2\./);
  assert.equal((await state(page)).kv_heads, 2);
  // Undo goes back to a key and a value per head, redo to the groups.
  await page.click('[data-action="undo"]');
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => !('kv_heads' in window.attentionExplorer.state()));
  await page.click('[data-action="redo"]');
  await page.click('[data-action="redo"]');
  await page.waitForFunction(() => window.attentionExplorer.state().kv?.[0].w_key[0][0] === 0.75);
  // The link and a reload bring the groups and the typed number back.
  await page.fill('[data-control="kv_heads"]', '1');
  await page.waitForFunction(() => window.attentionExplorer.state().kv_heads === 1);
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  s = await state(page);
  assert.equal(s.kv_heads, 1);
  assert.equal(s.kv[0].w_key[0][0], 0.75);
  assert.deepEqual(errors, []);
});

test('cross-attention: a source sentence gives keys and values, refuses the mask, and equals the core', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  // The dog is causal: a source is refused until the mask is off, and kept meanwhile. Found as
  // a learner: following the message emptied the box and left the message.
  await page.fill('[data-control="source"]', 'the cat sat');
  await page.waitForSelector('#source-error');
  assert.match(await page.textContent('#source-error'), /^Source: a causal mask hides later tokens.*Still using the last one; this one is used once that changes\.$/);
  assert.ok(!('source' in await state(page)));
  await page.uncheck('[data-control="causal"]');
  await page.waitForFunction(() => window.attentionExplorer.state().source?.sentence === 'the cat sat');
  assert.equal(await page.inputValue('[data-control="source"]'), 'the cat sat');
  await page.waitForSelector('#source-error', { state: 'detached' });
  const s = await state(page);
  assert.equal(s.source.embedding.length, 3);
  assertSameTrace(await trace(page), coreTrace(JSON.stringify(s)));
  // The weights are 9 queries × 3 source keys, their columns the source's words.
  const heads = await page.$$eval('table[data-matrix="weights"][data-head="0"] thead th', (ths) => ths.map((th) => th.textContent.trim()));
  assert.deepEqual(heads.slice(-3), ['the', 'cat', 'sat']);
  assert.equal((await trace(page)).heads[0].weights[0].length, 3);
  // The source's own table is editable.
  const cell = `table[data-matrix="source_embedding"] td[data-row="0"][data-col="0"] input`;
  await page.fill(cell, '1.5');
  await page.press(cell, 'Enter');
  await page.waitForFunction(() => window.attentionExplorer.state().source.embedding[0][0] === 1.5);
  // The mask is refused with the reason while the source is set, and the box stays off.
  await page.click('[data-control="causal"]');
  await page.waitForSelector('[data-stat="causal-refused"]');
  assert.equal(await page.isChecked('[data-control="causal"]'), false);
  assert.equal((await state(page)).causal, false);
  // The masking step says why, with no button that would be refused.
  assert.match(await page.textContent('[data-note="no-mask-with-source"]'), /No causal mask with a source sentence/);
  assert.equal(await page.locator('[data-action="causal-on"]').count(), 0);
  // The link and a reload bring the source and its edited row back.
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal((await state(page)).source.embedding[0][0], 1.5);
  assert.equal(await page.inputValue('[data-control="source"]'), 'the cat sat');
  // Emptied, the keys come from the sentence again.
  await page.fill('[data-control="source"]', '');
  await page.waitForFunction(() => !('source' in window.attentionExplorer.state()));
  await page.waitForSelector('[data-action="causal-on"]', { state: 'attached' });
  assert.deepEqual(errors, []);
});

test('the KV cache lab decodes a token at a time to the full causal computation', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await showLab(page, 'lab-kv-cache');
  for (let i = 0; i < 6; i++) await page.click('[data-action="decode-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="cache_rows"]').dataset.value === '7');
  assert.match(await page.textContent('#lab-kv-cache'), /Token 7 of 9: “she”, head 0/);
  assert.ok(await numberStat(page, 'cache_max_diff') <= 1e-12);
  const weights = await labMatrix(page, 'kv-weights');
  assertClose(weights, [(await trace(page)).heads[0].weights[6].slice(0, 7)], 'the decoded row');
  // "she" looks at "dog" as the page says.
  assert.ok(Math.abs(weights[0][1] - 0.883) < 5e-4);
  const [cached, full] = [await numberStat(page, 'macs_cached'), await numberStat(page, 'macs_full')];
  assert.ok(full > 3 * cached, `${full} against ${cached}`);
  assert.match(await page.textContent('[data-note="kv-cache-words"]'), /^“she” attends most to “dog” \(0\.88\d*\), as the full computation's row 6 does\. The cache now holds 7 keys and values; this step took \d+ multiply-adds, \d+ without the cache \(\d+× fewer\)\.$/);
  // On to the end: every decoded row is the full computation's.
  for (const t of [7, 8]) {
    await page.click('[data-action="decode-step"]');
    await page.waitForFunction((rows) => document.querySelector('[data-stat="cache_rows"]').dataset.value === rows, String(t + 1));
    assertClose(await labMatrix(page, 'kv-weights'), [(await trace(page)).heads[0].weights[t].slice(0, t + 1)], `decoded row ${t}`);
    assert.ok(await numberStat(page, 'cache_max_diff') <= 1e-12);
  }
  assert.equal(await page.isDisabled('[data-action="decode-step"]'), true);
  await page.click('[data-action="decode-reset"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="cache_rows"]').dataset.value === '1');
  // Without the mask it says why it cannot decode.
  await page.uncheck('[data-control="causal"]');
  await page.waitForSelector('[data-note="kv-cache-refused"]');
  assert.deepEqual(errors, []);
});

test('the FlashAttention lab: tiles with the online softmax give the context, the mask skips tiles', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await showLab(page, 'lab-flash');
  await page.fill('[data-control="flash_block"]', '3');
  await page.waitForFunction(() => document.querySelector('[data-stat="flash_numbers_held"]').dataset.value === String(9 + 3 * 3));
  assert.ok(await numberStat(page, 'flash_max_diff') <= 1e-12);
  // 9 tokens in blocks of 3: 3 × 3 tiles, the 3 above the diagonal skipped.
  assert.equal(await numberStat(page, 'flash_tiles'), 6);
  assert.equal(await numberStat(page, 'flash_skipped'), 3);
  assert.equal(await numberStat(page, 'flash_numbers_full'), 81);
  assert.match(await page.textContent('[data-view="flash-state"]'), /The block's first tile/);
  // Nothing before a block's first tile to rescale: no "[0, 0, 0]".
  assert.doesNotMatch(await page.textContent('[data-view="flash-state"]'), /rescale/);
  assert.equal(await page.locator('table[data-lab-matrix="flash-context"]').count(), 0);
  await page.click('[data-action="flash-step"]');
  assert.match(await page.textContent('[data-view="flash-state"]'), /Queries 0–2 against keys 3–5: skipped[\s\S]*m, l and O stay as they were/);
  // A skipped tile has no scores to show.
  assert.equal(await page.locator('table[data-lab-matrix="flash-scores"]').count(), 0);
  // The second block's second tile: a query whose maximum grows says by how much the sum shrinks.
  for (let i = 0; i < 3; i++) await page.click('[data-action="flash-step"]');
  assert.match(await page.textContent('[data-view="flash-state"]'), /Queries 3–5 against keys 3–5[\s\S]*(m rises to|No query's maximum grows)/);
  // Every tile walked: the last block's last tile, and the button then stops.
  for (let i = 0; i < 4; i++) await page.click('[data-action="flash-step"]');
  assert.match(await page.textContent('[data-view="flash-state"]'), /Queries 6–8 against keys 6–8/);
  assert.equal(await page.isDisabled('[data-action="flash-step"]'), true);
  // After the block's last tile, O / l: its rows of the page's context.
  const context = (await page.evaluate(() => window.attentionExplorer.trace())).heads[0].context.slice(6, 9);
  const shown = await page.$$eval('table[data-lab-matrix="flash-context"] tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
  assert.equal(shown.length, 3);
  shown.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - context[i][j]) <= 1e-12, `O / l [${i}][${j}]`)));
  assert.ok(await numberStat(page, 'flash_max_diff') <= 1e-12);
  // A tile size of 0, or past the keys, is named with one range and the last good one kept.
  for (const typed of ['0', '10', '100']) {
    await page.fill('[data-control="flash_block"]', typed);
    await page.waitForSelector('[data-control="flash_block"][aria-invalid="true"]');
    assert.match(await page.textContent('#flash_block-error'), /use a whole number from 1 to 9/);
  }
  assert.equal(await numberStat(page, 'flash_tiles'), 6);
  assert.deepEqual(errors, []);
});

test('"Copy as PyTorch" of shared heads and of a source checks itself against scaled_dot_product_attention', async (t) => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka-multihead`);
  await page.fill('[data-control="kv_heads"]', '1');
  await page.waitForFunction(() => window.attentionExplorer.state().kv_heads === 1);
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  assert.match(script, /enable_gqa=True/);
  assert.deepEqual(errors, []);
  const printed = await runWithTorch(t, script, '[output.tolist(), torch.allclose(torch.cat(list(fused), dim=1), output)]');
  if (!printed) return;
  assertClose(printed[0], (await trace(page)).output, 'output');
  assert.equal(printed[1], true);
});
