// End-to-end: the learner's numbers out of the page (CSV, JSON, PyTorch) and back in (a file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useBrowser, open, runWithTorch } from './harness.mjs';

const env = useBrowser();

/** Opens the save menu `selector` is in, clicks it and returns the text of the file it
 * downloads. */
async function downloaded(page, selector) {
  // A figure's save menu opens first (the state's and the trace's are in "Save, load or share").
  await page.waitForSelector(selector, { state: 'attached' });
  await page.$eval(selector, (button) => button.closest('details.figure-save')?.setAttribute('open', ''));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

test('a matrix downloads as CSV equal to its table, with the tokens as labels', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  const figure = 'figure:has(table[data-matrix="weights"][data-head="0"])';
  const { name, text } = await downloaded(page, `${figure} [data-action="download-csv"]`);
  assert.equal(name, 'weights-head0.csv');
  const rows = text.trimEnd().split('\r\n').map((r) => r.split(','));
  const table = await page.$eval('table[data-matrix="weights"]', (t) => ({
    cols: [...t.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [tr.querySelector('th').textContent, ...[...tr.querySelectorAll('td')].map((td) => td.dataset.value)]),
  }));
  assert.deepEqual(rows[0], ['', ...table.cols]);
  assert.deepEqual(rows.slice(1), table.rows);
  assert.deepEqual(rows[7].slice(0, 1), ['she']);
  assert.deepEqual(errors, []);
});

test('the state and the trace download as JSON; a bad file changes nothing', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka`);
  await page.click('summary:has-text("Save, load or share")');
  const state = await downloaded(page, '[data-action="download-state"]');
  assert.deepEqual(JSON.parse(state.text), await page.evaluate(() => window.attentionExplorer.state()));
  const trace = await downloaded(page, '[data-action="download-trace"]');
  assert.deepEqual(JSON.parse(trace.text), await page.evaluate(() => window.attentionExplorer.trace()));

  const before = await page.evaluate(() => window.attentionExplorer.trace());
  await page.setInputFiles('[data-control="import"]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "sentence": "a b"}') });
  await page.waitForSelector('#import-message.field-error');
  assert.match(await page.textContent('#import-message'), /“bad.json” was not loaded: .*embedding.*unchanged/);
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.trace()), before);

  const dog = await open(env.browser, `${env.base}?preset=dog`);
  const dogState = JSON.stringify(await dog.page.evaluate(() => window.attentionExplorer.state()));
  await dog.page.close();
  await page.setInputFiles('[data-control="import"]', { name: 'dog.json', mimeType: 'application/json', buffer: Buffer.from(dogState) });
  await page.waitForSelector('#import-message.field-ok');
  assert.equal(JSON.stringify(await page.evaluate(() => window.attentionExplorer.state())), dogState);
  await page.click('[data-action="undo"]');
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.trace()), before, 'a load is one undo step');
  assert.deepEqual(errors, []);
});

test('"Copy as PyTorch" gives a script whose output equals the trace', async (t) => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=raschka-multihead`);
  await page.check('[data-control="causal"]');
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  const trace = await page.evaluate(() => window.attentionExplorer.trace());
  assert.match(script, /^import torch$/m);
  assert.match(script, /causal = True/);
  assert.deepEqual(errors, []);

  // Checked as Python always; run when PyTorch is installed (else the test says it skipped).
  const output = await runWithTorch(t, script, 'output.tolist()');
  if (!output) return;
  output.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - trace.output[i][j]) <= 1e-9, `output[${i}][${j}]`)));
});
