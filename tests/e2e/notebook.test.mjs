// The notebook widget (python/) in a real JupyterLab (tests/e2e/jupyter.mjs): a notebook opened
// in headless Chromium that can resolve no host but this machine, its cells run as a learner runs
// them. What Python reads is printed by the cells and read from their outputs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, cellSelector, picture, output, eventually } from './harness.mjs';
import { missing, startLab, openNotebook, run } from './jupyter.mjs';

// nn.MultiheadAttention(9, 3) with biases, causal, from PyTorch (tests/fixtures/mha_cases.json).
const CASE = JSON.parse(readFileSync(join(projectRoot, 'tests/fixtures/mha_cases.json'), 'utf8')).cases[1];

const CELLS = [
  // 0: the module: PyTorch's own when the environment has it, else what from_torch reads of one.
  `import json
import numpy as np
from attention_explorer import Explorer
case = json.load(open("module.json"))
try:
    import torch
    mha = torch.nn.MultiheadAttention(9, 3, batch_first=True, dtype=torch.float64)
    mha.load_state_dict({k: torch.tensor(v, dtype=torch.float64) for k, v in case["state_dict"].items()})
except ImportError:
    class StandIn:  # PyTorch is not installed here: what from_torch reads of nn.MultiheadAttention
        num_heads = case["num_heads"]
        def state_dict(self):
            return {k: np.array(v) for k, v in case["state_dict"].items()}
    mha = StandIn()
print("module ready")`,
  // 1: the widget
  `explorer = Explorer.from_torch(mha, case["sentence"], embedding=case["embedding"], causal=case["causal"], steps=["projections", "weights"], controls="none")
explorer`,
  // 2: Python reads the state, the module's weights and the trace
  `from attention_explorer import _core
w = _core.torch_file(explorer.state)["state_dict"]["in_proj_weight"]
try:
    module = explorer.to_torch().in_proj_weight.tolist()
except ImportError:
    module = None
print(json.dumps({"w_query": explorer.state["heads"][0]["w_query"], "in_proj_weight": w, "module": module, "weights": explorer.trace()["heads"][0]["weights"].tolist()}))`,
  // 3: Python sets the state
  `s = explorer.state
s["heads"][1]["w_query"][2][0] = 2.5
explorer.state = s
print("set")`,
  // 4: a second widget
  `other = Explorer(steps=["weights"])
other`,
  // 5: a bad state from Python
  `bad = explorer.state
bad["heads"][0]["w_key"] = "x"
try:
    explorer.state = bad
except ValueError as e:
    print("ValueError:", e)
print(json.dumps([explorer.state["heads"][1]["w_query"][2][0], other.state["sentence"]]))`,
  // 6: an exercise
  `quiz = Explorer(steps=["weights"], exercises={"ask": "weights.0:6,1"})
quiz`,
  // 7: its results in Python
  `print(json.dumps(quiz.results))`,
  // 8: a page the browser cannot reach
  `lost = Explorer(url="http://127.0.0.1:9/index.html")
lost._silence_ms = 1000
lost`,
];

let lab;
before(async () => { if (!missing) lab = await startLab(CELLS, { 'module.json': JSON.stringify(CASE.torch) }); });
after(() => lab?.stop());

const frame = (page, n) => page.frameLocator('iframe[data-attention-explorer]').nth(n);
const cellOf = (name, row, col, head) => cellSelector(name, row, col, head);

test('the widget in JupyterLab: from PyTorch, edited in the frame, read and set from Python, two at once, offline', { skip: missing }, async () => {
  const { page, away, errors } = await openNotebook(lab);
  assert.equal(await run(page, 0), 'module ready');
  await run(page, 1, { printed: false });
  const explorer = frame(page, 0);
  await explorer.locator(cellOf('w_query', 0, 0, 0)).waitFor({ timeout: 60_000 });
  // The frame shows the module's numbers: W_query of head 0 is in_proj_weight[0:3].T.
  const inProj = CASE.torch.state_dict.in_proj_weight;
  assert.equal(Number(await explorer.locator(cellOf('w_query', 1, 2, 0)).getAttribute('data-value')), inProj[2][1]);

  // A learner types into W_query in the widget; Python sees it, in the state and in the module.
  await explorer.locator(`${cellOf('w_query', 1, 0, 0)} input`).fill('-0.75');
  await explorer.locator(`${cellOf('w_query', 1, 0, 0)}[data-value="-0.75"]`).waitFor();
  const read = await eventually(async () => JSON.parse(await run(page, 2)), (r) => r.w_query[1][0] === -0.75, { timeout: 20_000 });
  assert.equal(read.w_query[1][0], -0.75, 'the edit reached explorer.state');
  assert.equal(read.in_proj_weight[0][1], -0.75, 'to_torch: in_proj_weight[0][1] is W_query[1][0]');
  if (read.module) assert.deepEqual(read.module, read.in_proj_weight, 'explorer.to_torch() holds the edited weights');
  // The trace Python computes is the page's: the frame's weights, cell by cell.
  const pageWeights = await explorer.locator('table[data-matrix="weights"][data-head="0"] td[data-value]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.value)));
  assert.equal(pageWeights.length, 81);
  assert.ok(read.weights.flat().every((x, i) => Math.abs(x - pageWeights[i]) <= 1e-12), 'trace() equals the page');

  // Python sets the state: the widget's tables follow.
  assert.equal(await run(page, 3), 'set');
  await explorer.locator(`${cellOf('w_query', 2, 0, 1)}[data-value="2.5"]`).waitFor({ timeout: 20_000 });

  await page.locator('.jp-Notebook .jp-Cell').nth(1).locator('.jp-OutputArea-output').evaluate((o) => o.scrollIntoView());
  await picture(page, output('notebook-lab-light.png'));

  // A second widget beside it: its own model, the same files.
  await run(page, 4, { printed: false });
  await frame(page, 1).locator('table[data-matrix="weights"]').first().waitFor({ timeout: 60_000 });
  assert.equal(await frame(page, 1).locator('table[data-matrix="weights"] tbody tr').count(), 9, 'the dog story, not the module');
  // A bad state from Python raises the page's message; both widgets keep their models.
  const [message, kept] = (await run(page, 5)).split('\n');
  assert.equal(message, 'ValueError: heads[0].w_key: invalid type: string "x", expected a list');
  assert.deepEqual(JSON.parse(kept), [2.5, 'The dog fetched the ball and she was happy']);

  // Both frames are the kernel's one server; the second took the wasm from the browser's cache.
  const srcs = await page.locator('iframe[data-attention-explorer]').evaluateAll((fs) => fs.map((f) => new URL(f.src).origin));
  assert.equal(new Set(srcs).size, 1);
  const fetched = await frame(page, 1).locator('html').evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('_bg.wasm')).map((e) => e.transferSize));
  assert.deepEqual(fetched, [0], 'the second frame\'s wasm came from the cache');
  // An exercise: the learner's answer arrives in explorer.results.
  await run(page, 6, { printed: false });
  const quiz = frame(page, 2);
  await quiz.locator('input[data-answer="weights.0:6,1"]').fill('0.883');
  await quiz.locator('[data-action="check"]').click();
  const results = await eventually(async () => JSON.parse(await run(page, 7)), (r) => r.length > 0, { timeout: 20_000 });
  assert.equal(results[0].exercise, 'weights.0:6,1');
  assert.equal(results[0].correct, true);
  // A page the browser cannot reach: a message in the cell, not a blank box.
  await run(page, 8, { printed: false });
  const note = page.locator('.jp-Notebook .jp-Cell').nth(8).locator('[data-explorer-note]');
  await note.waitFor({ timeout: 20_000 });
  assert.match(await note.textContent(), /did not answer from http:\/\/127\.0\.0\.1:9\. Is the page served at that address \(Explorer\(url=\.\.\.\)/);

  assert.deepEqual(away, [], 'no request left this machine');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the widget follows JupyterLab\'s dark theme', { skip: missing }, async () => {
  const { page, errors } = await openNotebook(lab, { theme: 'dark' });
  await run(page, 0);
  await run(page, 1, { printed: false });
  const explorer = frame(page, 0);
  await explorer.locator(cellOf('w_query', 0, 0, 0)).waitFor({ timeout: 60_000 });
  assert.equal(await explorer.locator('html').getAttribute('data-theme'), 'dark');
  await page.locator('.jp-Notebook .jp-Cell').nth(1).locator('.jp-OutputArea-output').evaluate((o) => o.scrollIntoView());
  await picture(page, output('notebook-lab-dark.png'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the widget in Notebook 7: an edit reaches Python', { skip: missing }, async () => {
  const { page, away, errors } = await openNotebook(lab, { app: 'notebooks' });
  await run(page, 0);
  await run(page, 1, { printed: false });
  const explorer = frame(page, 0);
  await explorer.locator(`${cellOf('w_query', 0, 1, 0)} input`).fill('1.25');
  const read = await eventually(async () => JSON.parse(await run(page, 2)), (r) => r.w_query[0][1] === 1.25, { timeout: 20_000 });
  assert.equal(read.w_query[0][1], 1.25);
  assert.deepEqual(away, []);
  assert.deepEqual(errors, []);
  await page.close();
});
