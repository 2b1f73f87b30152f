// End-to-end: the training lab (issue 16) and the scripting API's gradients and train, as a
// learner and a course page use them; the numbers against `attention-trace --objective`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useBrowser, open, sandboxedPage, openLab, showLab, numberStat as stat, state, picture, projectRoot, assertClose, output, runWithTorch } from './harness.mjs';

const env = useBrowser();

/** The dog, scrolled to the training lab. */
const trainLab = async (viewport) => (await openLab(env.browser, `${env.base}?preset=dog`, 'lab-train', viewport)).page;

test('Step lowers the loss and raises the target weight; Undo takes the step back', async () => {
  const page = await trainLab();
  // The followed "she", and the key she looks at second most: "ball".
  assert.equal(await page.$eval('[data-control="train-query"]', (s) => s.selectedOptions[0].textContent), '“she”');
  assert.equal(await page.$eval('[data-control="train-key"]', (s) => s.selectedOptions[0].textContent), '“ball”');
  const start = await state(page);
  const [loss, weight] = [await stat(page, 'loss'), await stat(page, 'target_weight')];
  assert.ok(Math.abs(weight - 0.0870) < 1e-3, `she → ball ${weight}`);
  await page.click('[data-action="train-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  assert.ok((await stat(page, 'loss')) < loss, 'the loss fell');
  assert.ok((await stat(page, 'target_weight')) > weight, 'the weight rose');
  // The weights table shows the trained model.
  const trace = await page.evaluate(() => window.attentionExplorer.trace());
  assert.equal(await page.getAttribute('table[data-matrix="weights"] td[data-row="6"][data-col="4"]', 'data-value'), String(trace.heads[0].weights[6][4]));
  await page.click('[data-action="undo"]');
  assert.deepEqual(await state(page), start);
});

test('Run and Pause: the whole run is one undo step, and Reset goes back to before training', async () => {
  const page = await trainLab({ width: 390, height: 844 });
  const start = await state(page);
  await page.click('[data-action="train-run"]');
  assert.equal(await page.getAttribute('[data-action="train-run"]', 'aria-pressed'), 'true');
  await page.waitForFunction(() => Number(document.querySelector('[data-stat="train_steps"]').textContent) >= 20);
  await page.click('[data-action="train-run"]');
  assert.equal(await page.textContent('[data-action="train-run"]'), 'Run');
  assert.ok((await stat(page, 'target_weight')) > 0.5, 'she looks at the ball now');
  assert.ok(await page.$('[data-curve="loss"]'), 'a loss curve');
  await picture(page.locator('#lab-train'), output('train-lab-phone-light.png'));
  const trained = await state(page);
  await page.click('[data-action="undo"]');
  assert.deepEqual(await state(page), start, 'one undo takes the run back');
  await page.click('[data-action="redo"]');
  assert.deepEqual(await state(page), trained);
  await page.click('[data-action="train-reset"]');
  assert.deepEqual(await state(page), start, 'Reset: the numbers from before training');
  await page.click('[data-action="undo"]');
  assert.deepEqual(await state(page), trained, 'and Undo brings the trained ones back');
});

test('the dog story backwards: from random projections, training makes "she" attend to "dog"', async () => {
  const page = await trainLab();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.click('[data-action="train-dog"]');
  await page.waitForFunction(() => document.querySelector('[data-action="train-run"]').textContent === 'Run'
    && Number(document.querySelector('[data-stat="train_steps"]').textContent) > 0, null, { timeout: 60_000 });
  assert.equal(await page.$eval('[data-control="train-key"]', (s) => s.selectedOptions[0].textContent), '“dog”');
  const weight = await stat(page, 'target_weight');
  assert.ok(weight >= 0.88, `she → dog ${weight}`);
  await picture(page.locator('#lab-train'), output('train-lab-desktop-dark.png'));
});

test('several targets, what trains and the optimiser are in the link, and a reload keeps them', async () => {
  const page = await trainLab();
  await page.click('[data-action="train-add"]');
  // The new row: the last token ("happy") towards the key it attends to second most.
  const rows = page.locator('.train-target');
  assert.equal(await rows.count(), 2);
  await rows.nth(1).locator('[data-control="train-key"]').selectOption('1');
  await page.uncheck('[data-control="train-param"][value="embedding"]');
  await page.selectOption('[data-control="train-optimizer"]', 'sgd');
  await page.fill('[data-control="train-lr"]', '0.5');
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('target=0:6,4;0:8,1&train=w_query,w_key,w_value&optimizer=sgd&lr=0.5'));
  const embedding = (await state(page)).embedding;
  const loss = await stat(page, 'loss');
  await page.click('[data-action="train-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  assert.ok((await stat(page, 'loss')) < loss, 'the mean loss fell');
  assert.deepEqual((await state(page)).embedding, embedding, 'the embedding does not train');
  // A bad rate says so and keeps the last good one.
  await page.fill('[data-control="train-lr"]', 'fast');
  assert.match(await page.textContent('.lab-controls .field-error'), /“fast” is not a learning rate.*still using 0\.5/);
  await page.reload();
  await showLab(page, 'lab-train');
  await page.waitForSelector('.train-target >> nth=1');
  assert.equal(await page.$eval('.train-target >> nth=1', (r) => r.querySelector('[data-control="train-key"]').selectedOptions[0].textContent), '“dog”');
  assert.equal(await page.$eval('[data-control="train-optimizer"]', (s) => s.value), 'sgd');
  assert.equal(await page.$eval('[data-control="train-lr"]', (s) => s.value), '0.5');
  assert.equal(await page.isChecked('[data-control="train-param"][value="embedding"]'), false);
  await page.click('[data-action="train-remove"] >> nth=1');
  assert.equal(await rows.count(), 1);
});

test('match an output: new random projections, then training brings the output back', async () => {
  const page = await trainLab();
  const output = (await page.evaluate(() => window.attentionExplorer.trace())).output;
  await page.selectOption('[data-control="train-goal"]', 'output');
  assert.equal(await stat(page, 'loss'), 0);
  await page.click('[data-action="train-scramble"]');
  const far = await stat(page, 'loss');
  assert.ok(far > 0.01, `the scrambled output is far: ${far}`);
  await page.click('[data-action="train-run"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-stat="train_steps"]').textContent) >= 300, null, { timeout: 60_000 });
  await page.click('[data-action="train-run"]');
  const near = await stat(page, 'loss');
  assert.ok(near < far / 10, `${far} → ${near}`);
  const trained = (await page.evaluate(() => window.attentionExplorer.trace())).output;
  assert.ok(Math.abs(trained[6][0] - output[6][0]) < Math.abs(output[6][0]) / 2 + 0.1, 'the output is back near the target');
});

test('the race of the scalings: three curves; on the shipped example no scaling gets the least gradient and learns least', async () => {
  for (const [viewport, scheme, name] of [[undefined, 'light', 'desktop-light'], [{ width: 390, height: 844 }, 'dark', 'phone-dark']]) {
    const page = await trainLab(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    const raced = () => page.waitForFunction(() => document.querySelector('[data-stat="race_steps"]')?.textContent === '100', null, { timeout: 60_000 });
    if (!viewport) {
      // The dog's attention target: no scaling learns too, and the words say why.
      await page.click('[data-action="train-race"]');
      await raced();
      assert.match(await page.textContent('[data-stat="race_words"]'), /Without scaling it learns too/);
    }
    await page.click('[data-action="train-race-example"]');
    await page.waitForFunction(() => document.querySelector('[data-stat="race_steps"]')?.textContent !== '100');
    await raced();
    for (const curve of ['none', 'sqrt_dk', 'dk']) assert.ok(await page.$(`path[data-curve="${curve}"]`), curve);
    const grad = { none: await stat(page, 'race_grad_none'), sqrt: await stat(page, 'race_grad_sqrt_dk'), dk: await stat(page, 'race_grad_dk') };
    assert.ok(grad.none < 1e-20 && grad.sqrt > 0.1 && grad.dk > 0.1, JSON.stringify(grad));
    const model = await state(page);
    assert.equal(model.heads[0].w_query.length, 64, 'the example is d_in = 64');
    const first = (await page.evaluate(() => window.attentionExplorer.trace())).output;
    const progress = {};
    for (const key of ['none', 'sqrt_dk', 'dk']) progress[key] = await stat(page, `race_loss_${key}`);
    assert.ok(progress.none > progress.sqrt_dk && progress.none > progress.dk, JSON.stringify(progress));
    assert.match(await page.textContent('[data-stat="race_words"]'), /Without scaling the softmax is saturated/);
    assert.ok(first.length === 6);
    await picture(page.locator('#lab-train'), output(`train-race-${name}.png`));
    await page.close();
  }
});

test('gradients() and train() equal attention-trace --objective, and refuse bad objectives', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=raschka`);
  const objective = { attend: [{ head: 0, query: 5, key: 2 }], train: ['w_query', 'w_key'] };
  const saved = await state(page);
  const dir = mkdtempSync(join(tmpdir(), 'objective-'));
  writeFileSync(join(dir, 'o.json'), JSON.stringify(objective));
  const cli = (extra) => JSON.parse(execFileSync('cargo', ['run', '--quiet', '--bin', 'attention-trace', '--', '--state', '-', '--objective', join(dir, 'o.json'), ...extra], { cwd: projectRoot, input: JSON.stringify(saved), maxBuffer: 1 << 26 }).toString());
  const expected = cli(['--train', '5', '--optimizer', 'sgd', '--lr', '0.1']);
  const got = await page.evaluate((o) => window.attentionExplorer.gradients(o), objective);
  assert.ok(Math.abs(got.loss - expected.loss) < 1e-12);
  assertClose(got.grad.heads[0].w_query, expected.grad.heads[0].w_query, 'w_query');
  assertClose(got.grad.embedding, expected.grad.embedding, 'embedding');
  const losses = await page.evaluate((o) => window.attentionExplorer.train({ objective: o, steps: 5, optimizer: 'sgd', lr: 0.1 }), objective);
  assert.equal(losses.length, 6);
  losses.forEach((l, k) => assert.ok(Math.abs(l - expected.losses[k]) < 1e-12, `loss ${k}`));
  assertClose((await state(page)).heads[0].w_query, expected.trained.heads[0].w_query, 'trained w_query');
  // Refused with the CLI's messages; nothing changes.
  const before = await state(page);
  assert.match(await page.evaluate(() => window.attentionExplorer.gradients({ attend: [{ head: 3, query: 0, key: 0 }] })), /attend\[0\]\.head is 3/);
  assert.match(await page.evaluate(() => window.attentionExplorer.train({ objective: { output: [[1]] } })), /"output" must be 6 rows/);
  assert.match(await page.evaluate(() => window.attentionExplorer.train({ objective: { attend: [{ head: 0, query: 0, key: 1 }] }, optimizer: 'rmsprop' })), /unknown optimizer/);
  assert.deepEqual(await state(page), before);
});

test('after training, "Copy as PyTorch" takes the loss\'s gradients, equal to the page\'s', async (t) => {
  const page = await trainLab();
  await page.click('[data-action="train-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  await page.click('[data-action="copy-pytorch"]');
  const script = await page.textContent('pre[data-export="pytorch"]');
  assert.match(script, /^loss\.backward\(\)/m);
  assert.match(script, /targets = \[\(0, 6, 4\)\]/);
  const page_grads = await page.evaluate(() => window.attentionExplorer.gradients({ attend: [{ head: 0, query: 6, key: 4 }] }));
  const torch = await runWithTorch(t, script, '{"embedding": embedding.grad.tolist(), "w_query": w_query[0].grad.tolist(), "w_key": w_key[0].grad.tolist()}');
  if (!torch) return;
  assertClose(torch.embedding, page_grads.grad.embedding, 'embedding.grad');
  assertClose(torch.w_query, page_grads.grad.heads[0].w_query, 'w_query.grad');
  assertClose(torch.w_key, page_grads.grad.heads[0].w_key, 'w_key.grad');
});

test('the gradient face: ∂L/∂cell on every matrix, equal to gradients(), in the link, explained in words', async () => {
  const page = await trainLab();
  assert.ok(await page.isHidden('[data-action="toggle-gradient"] >> nth=0'), 'no gradient before a target');
  await page.click('[data-action="train-step"]');
  await page.waitForFunction(() => document.querySelector('[data-stat="train_steps"]').textContent === '1');
  const objective = { attend: [{ head: 0, query: 6, key: 4 }] };
  const expected = await page.evaluate((o) => window.attentionExplorer.gradients(o), objective);
  for (const [name, grad] of [['w_query', expected.grad.heads[0].w_query], ['scores', expected.grad.heads[0].scores], ['embedding', expected.grad.embedding]]) {
    const head = name === 'embedding' ? '' : '[data-head="0"]';
    const figure = page.locator(`figure:has([data-matrix="${name}"]${head})`).first();
    await figure.locator('[data-action="toggle-gradient"]').click();
    const table = page.locator(`table[data-matrix="${name}"]${head}[data-view="gradient"]`);
    await table.waitFor();
    const shown = await table.evaluate((t) => [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.grad))));
    assertClose(shown, grad, `${name} gradient face`);
  }
  await page.waitForFunction(() => location.hash.includes('faces=') && location.hash.includes('w_query.0%3Agradient') || location.hash.includes('w_query.0:gradient'));
  // A clicked cell says what raising it would do.
  await page.click('table[data-matrix="w_query"][data-view="gradient"] td[data-row="1"][data-col="0"]');
  assert.match(await page.textContent('figure:has(table[data-matrix="w_query"][data-view="gradient"]) [data-breakdown="gradient"]'), /^∂L\/∂W_query, head 0\[1\]\[0\] = -?\d(\.\d+)?(e-?\d+)?: raising this number by 0\.01 would (raise|lower) the loss/);
  await picture(page.locator('#step-projections'), output('train-gradient-face-desktop-light.png'));
});

test('a course page asks an embedded explorer for gradients and trains it by postMessage', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  const expected = await page.evaluate(() => window.attentionExplorer.gradients({ attend: [{ head: 0, query: 6, key: 4 }] }));
  await page.close();
  const { course } = await sandboxedPage(env, `${env.base}?preset=dog&embed=1&steps=weights`, { width: 600, height: 400 });
  const frame = course.frameLocator('iframe');
  // The app itself, not its opening page written at build time (both hold the table meanwhile).
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
  const ask = (message) => course.evaluate((m) => new Promise((resolve) => {
    const frame = document.querySelector('iframe').contentWindow;
    addEventListener('message', function answer(e) {
      if (e.source === frame && e.data?.id === m.id && e.data.type !== 'attention-explorer:resize') { removeEventListener('message', answer); resolve(e.data); }
    });
    frame.postMessage(m, '*');
  }), message);
  const objective = { attend: [{ head: 0, query: 6, key: 4 }] };
  const grads = await ask({ type: 'attention-explorer:gradients', objective, id: 1 });
  assert.equal(grads.type, 'attention-explorer:gradients');
  assert.equal(grads.result.loss, expected.loss);
  const trained = await ask({ type: 'attention-explorer:train', objective, steps: 3, optimizer: 'sgd', lr: 0.5, id: 2 });
  assert.equal(trained.type, 'attention-explorer:trained');
  assert.equal(trained.result.length, 4);
  assert.ok(trained.result[3] < trained.result[0], 'the loss fell');
  const refused = await ask({ type: 'attention-explorer:train', objective: { attend: [] }, id: 3 });
  assert.match(refused.result, /no targets/);
});

test('SGD at a rate of 10: the curve stops where the loss cannot be drawn and the caption says it overshot', async () => {
  const { page, errors } = await open(env.browser, `${env.base}?preset=dog#target=0:6,4&optimizer=sgd&lr=10`);
  await showLab(page, 'lab-train');
  for (let i = 0; i < 20; i++) {
    await page.click('#lab-train [data-action="train-step"]');
    await page.waitForSelector('#lab-train [data-action="train-step"]:not([disabled])');
  }
  const figure = page.locator('#lab-train .loss-plot').first();
  assert.match(await figure.locator('figcaption').textContent(), /It rose/);
  assert.doesNotMatch(await figure.locator('figcaption').textContent(), /fell fast at first/);
  // Every point is inside the plot's box (320 × 140).
  const d = await figure.locator('path[data-curve]').first().getAttribute('d');
  for (const [, x, y] of d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)) assert.ok(x >= 0 && x <= 320 && y >= 0 && y <= 140, `${x},${y}`);
  await picture(figure, output('train-sgd-overshoot.png'), { everyStep: false });
  assert.deepEqual(errors, []);
});
