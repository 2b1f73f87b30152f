// End-to-end: real layers (issue 18). Biases and the output projection turned on, typed into,
// undone, in the link and after reload; PyTorch's nn.MultiheadAttention imported through the
// pasted JSON and through a dropped .safetensors file, every head's weights and the output equal
// to PyTorch's (tests/fixtures/mha_cases.json); bad imports say why and change nothing; "Copy as
// PyTorch" of an imported module, run by torch, equals the page (skipped visibly without torch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, open, projectRoot, cellSelector, linkSettled, runWithTorch } from './harness.mjs';
import { cases, pageState, openImport } from './screens.mjs';

const env = useBrowser();
const fixtures = join(projectRoot, 'tests/fixtures');

function assertNear(actual, expected, what, tol = 1e-9) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  actual.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - expected[i][j]) <= tol, `${what}[${i}][${j}]: ${x} against ${expected[i][j]}`)));
}

async function equalsTorch(page, c, what) {
  const trace = await page.evaluate(() => window.attentionExplorer.trace());
  c.weights.forEach((w, h) => assertNear(trace.heads[h].weights, w, `${what} head ${h} weights`));
  assertNear(trace.output, c.output, `${what} output`);
  assert.ok(trace.concatenated, `${what}: the trace has the concatenation before the projection`);
}

test('every nn.MultiheadAttention of the fixtures, pasted as JSON, gives PyTorch\'s weights and output', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await openImport(page);
  for (const [i, c] of cases.entries()) {
    assert.equal(await page.evaluate((s) => window.attentionExplorer.load(s), pageState(c.torch)), null);
    await page.fill('[data-control="torch-json"]', JSON.stringify(c.torch.state_dict));
    await page.fill('[data-control="torch-heads"]', String(c.torch.num_heads));
    await page.click('[data-action="import-torch-apply"]');
    await page.waitForFunction(() => document.querySelector('#torch-message')?.classList.contains('field-ok'));
    await equalsTorch(page, c, `case ${i}`);
  }
  // The new matrices are in the DOM contract, with their numbers.
  const last = cases[cases.length - 1];
  for (const name of ['b_query', 'b_key', 'b_value']) assert.ok(await page.$(`table[data-matrix="${name}"][data-head="1"]`), name);
  for (const name of ['w_output', 'b_output', 'concatenated', 'output']) assert.ok(await page.$(`table[data-matrix="${name}"]`), name);
  const wOut = last.torch.state_dict['out_proj.weight'];
  assert.equal(Number(await page.getAttribute(cellSelector('w_output', 0, 1, null), 'data-value')), wOut[1][0], 'W_output is out_proj.weight transposed');
  assert.deepEqual(errors, []);
});

test('a .safetensors file, chosen or dropped, imports with the heads its metadata names', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await openImport(page);
  for (const i of [0, 1, 2]) {
    const c = cases[i];
    await page.evaluate((s) => window.attentionExplorer.load(s), pageState(c.torch));
    await page.fill('[data-control="torch-heads"]', '1');
    const buffer = await readFile(join(fixtures, `mha_${i}.safetensors`));
    if (i === 1) {
      // A real drop, as from the desktop.
      await page.evaluate(async (bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], 'mha_1.safetensors'));
        document.querySelector('.import-torch').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, [...buffer]);
    } else {
      await page.setInputFiles('[data-control="torch-file"]', { name: `mha_${i}.safetensors`, mimeType: 'application/octet-stream', buffer });
    }
    await page.waitForFunction((name) => document.querySelector('#torch-message')?.textContent.includes(name), `mha_${i}`);
    assert.match(await page.textContent('#torch-message'), new RegExp(`^Imported “mha_${i}.safetensors” as ${c.torch.num_heads} head\\(s\\) \\(as the file says\\)`));
    assert.equal(await page.inputValue('[data-control="torch-heads"]'), String(c.torch.num_heads));
    // float32 files hold the JSON's numbers rounded to float32: near, not equal.
    const tol = i === 0 ? 1e-9 : 1e-5;
    const trace = await page.evaluate(() => window.attentionExplorer.trace());
    c.weights.forEach((w, h) => assertNear(trace.heads[h].weights, w, `mha_${i} head ${h}`, tol));
    assertNear(trace.output, c.output, `mha_${i} output`, tol);
  }
  assert.deepEqual(errors, []);
});

test('a bad import says what is wrong and changes nothing', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await openImport(page);
  const before = await page.evaluate(() => JSON.stringify(window.attentionExplorer.state()));
  for (const [text, heads, says] of [
    ['{"in_proj_weight": [[1, 2], [3]]', '1', /^Not imported: not valid JSON/],
    ['{"weight": [[1]]}', '1', /^Not imported: no attention weights: expected in_proj_weight/],
    [JSON.stringify(cases[1].torch.state_dict), '3', /^Not imported: the module takes inputs of width E = 9 but this page's embedding is 2 wide/],
    [JSON.stringify(cases[1].torch.state_dict), '2', /^Not imported: 2 heads: the number of heads must divide E = 9/],
  ]) {
    await page.fill('[data-control="torch-json"]', text);
    await page.fill('[data-control="torch-heads"]', heads);
    await page.click('[data-action="import-torch-apply"]');
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#torch-message')?.textContent ?? ''), says.source);
    assert.match(await page.textContent('#torch-message'), / The current model is unchanged\.$/);
  }
  await page.setInputFiles('[data-control="torch-file"]', { name: 'junk.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('not a safetensors file at all') });
  await page.waitForFunction(() => /not a safetensors file/.test(document.querySelector('#torch-message')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => JSON.stringify(window.attentionExplorer.state())), before);
  assert.deepEqual(errors, []);
});

test('biases and the output projection: on, typed into, undone, in the link and after reload', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  assert.equal(await page.$('table[data-matrix="b_query"]'), null, 'off in the presets');
  assert.equal(await page.$('#step-out_proj'), null);
  await page.check('[data-control="biases"]');
  await page.waitForSelector('table[data-matrix="b_query"][data-head="0"]');
  const before = await page.evaluate(() => window.attentionExplorer.trace().heads[0].queries);
  const bias = await page.evaluate(() => window.attentionExplorer.state().heads[0].b_query);
  assert.equal(bias.length, 3);
  // Typed as a learner does: click the cell, type, leave.
  await page.click(cellSelector('b_query', 0, 0));
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.attentionExplorer.state().heads[0].b_query[0] === 2);
  const after = await page.evaluate(() => window.attentionExplorer.trace().heads[0].queries);
  after.forEach((row, i) => assert.ok(Math.abs(row[0] - (before[i][0] - bias[0] + 2)) < 1e-12, `query ${i} moved by the bias`));
  await page.check('[data-control="output-projection"]');
  await page.waitForSelector('#step-out_proj table[data-matrix="w_output"]');
  for (const name of ['concatenated', 'b_output', 'output']) assert.ok(await page.$(`table[data-matrix="${name}"]`), name);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_output', 0, 0, 1, 0.5)), null);
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().w_output[0][1]), 0.5);
  const state = await page.evaluate(() => window.attentionExplorer.state());
  assert.equal(state.version, 2);
  // Undo takes the steps back one by one (the edit, the projection, the typed bias, the
  // biases), and redo brings them again.
  for (let i = 0; i < 4; i++) await page.click('[data-action="undo"]');
  await page.waitForFunction(() => !document.querySelector('table[data-matrix="b_query"]') && !document.querySelector('#step-out_proj'));
  assert.equal((await page.evaluate(() => window.attentionExplorer.state())).version, 1);
  for (let i = 0; i < 4; i++) await page.click('[data-action="redo"]');
  await page.waitForSelector('table[data-matrix="w_output"]');
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.state()), state);
  // In the link: a reload opens the same model.
  await linkSettled(page);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.ok(await page.$('table[data-matrix="w_output"]'));
  assert.deepEqual(await page.evaluate(() => window.attentionExplorer.state()), state);
  await page.uncheck('[data-control="biases"]');
  await page.waitForFunction(() => !document.querySelector('table[data-matrix="b_query"]'));
  // An edit the model has no room for is refused with a message.
  assert.match(await page.evaluate(() => window.attentionExplorer.edit('b_query', 0, 0, 0, 1)), /this model has no b_query/);
  assert.deepEqual(errors, []);
});

test('"Copy as PyTorch" of an imported module, run with torch, equals the page', async (t) => {
  const c = cases[1];
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog`);
  await openImport(page);
  await page.evaluate((s) => window.attentionExplorer.load(s), pageState(c.torch));
  await page.fill('[data-control="torch-json"]', JSON.stringify(c.torch.state_dict));
  await page.fill('[data-control="torch-heads"]', String(c.torch.num_heads));
  await page.click('[data-action="import-torch-apply"]');
  await page.waitForFunction(() => document.querySelector('#torch-message')?.classList.contains('field-ok'));
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  const trace = await page.evaluate(() => window.attentionExplorer.trace());
  assert.match(script, /output = concatenated @ w_output \+ b_output/);
  assert.deepEqual(errors, []);
  const torchOutput = await runWithTorch(t, script, 'output.tolist()');
  if (!torchOutput) return;
  assertNear(torchOutput, trace.output, 'torch output', 1e-12);
  assertNear(trace.output, c.output, 'against the fixture');
});
