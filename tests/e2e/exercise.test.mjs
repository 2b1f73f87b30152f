// End-to-end: exercises in a link (issue 17). Ask a cell (its value nowhere in the page until it
// is right or revealed, hints, three tries), predict a row, reach a goal with locks, the results
// in `results()` and as messages to a course page embedding the explorer in a sandboxed frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { useBrowser, open, newContext, sandboxedPage, showLab, cellSelector, unzip } from './harness.mjs';
import { SHE_DOG, asked, card } from './screens.mjs';

const env = useBrowser();
const results = (page) => page.evaluate(() => window.attentionExplorer.results());

test('an asked cell hides its value until it is right, hints when it is not, and reports it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=${SHE_DOG}`);
  const value = await page.evaluate(() => window.attentionExplorer.trace().heads[0].scores[6][1]);
  assert.ok(Math.abs(value - 13.8325) < 1e-4, `${value}`);
  // Nowhere in the page: not as text, not as data-value, not in a title.
  const html = await page.content();
  for (const shown of [value.toFixed(4), value.toFixed(2), String(value)]) assert.ok(!html.includes(shown), `${shown} is in the page`);
  const cell = page.locator(cellSelector('scores', 6, 1));
  assert.equal(await cell.getAttribute('data-value'), null);
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-result'), 'open');
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-kind'), 'ask');
  assert.match(await page.textContent(`${card(SHE_DOG)} .exercise-question`), /Compute scores Q·Kᵀ, head 0, she → dog by hand/);

  // A typo costs no try.
  await page.fill(asked(SHE_DOG), '13,8');
  await page.click(`${card(SHE_DOG)} [data-action="check"]`);
  assert.match(await page.textContent(`${card(SHE_DOG)} .exercise-said`), /is not a number here: write decimals with a point/);
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-attempts'), '0');
  // A wrong answer: not yet, with the dot product's factors and not their sum.
  await page.fill(asked(SHE_DOG), '12');
  await page.click(`${card(SHE_DOG)} [data-action="check"]`);
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-result'), 'incorrect');
  const hint = await page.textContent(`${card(SHE_DOG)} .exercise-said`);
  assert.match(hint, /^Not yet \(1 of 3 tries\)\. A score is the dot product .*2\.6400 × 2\.8770 \+ 1\.4600 × 3\.0570 \+ 0\.9400 × 1\.8870\.$/);
  assert.ok(!(await page.content()).includes('13.8325'));
  // Right at two decimals, as a learner types it, with Enter.
  await page.fill(asked(SHE_DOG), '13.83');
  await page.press(asked(SHE_DOG), 'Enter');
  await page.waitForSelector(`${card(SHE_DOG)}[data-result="correct"]`);
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-attempts'), '2');
  assert.ok(!(await page.isVisible(`${card(SHE_DOG)} [data-action="check"]`)), 'no Check once right');
  assert.equal(Number(await cell.getAttribute('data-value')), value);
  assert.equal(await cell.textContent(), '13.8325');
  const [result] = await results(page);
  assert.deepEqual(
    { exercise: result.exercise, kind: result.kind, result: result.result, correct: result.correct, score: result.score, attempts: result.attempts, response: result.response, expected: result.expected },
    { exercise: SHE_DOG, kind: 'ask', result: 'correct', correct: true, score: 0.75, attempts: 2, response: '13.83', expected: value },
  );
  assert.equal(result.statement.verb.display['en-US'], 'answered');
  assert.equal(result.statement.result.success, true);

  // It survives a reload: the link holds the exercise, the saved work the attempts.
  await page.reload();
  await page.waitForSelector(`${card(SHE_DOG)}[data-result="correct"]`);
  assert.equal(Number(await cell.getAttribute('data-value')), value);
});

test('three wrong answers, or Show me, reveal the cell worked out', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=${SHE_DOG};context.0:6,0`);
  for (let i = 0; i < 3; i++) {
    await page.fill(asked(SHE_DOG), '1');
    await page.click(`${card(SHE_DOG)} [data-action="check"]`);
  }
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-result'), 'revealed');
  assert.equal(await page.getAttribute(card(SHE_DOG), 'data-attempts'), '3');
  assert.match(await page.textContent(`${card(SHE_DOG)} .exercise-said`), /^Not yet, three times: here it is, worked out\. she·dog = 2\.6400×2\.8770 \+ 1\.4600×3\.0570 \+ 0\.9400×1\.8870 = 13\.8325$/);
  assert.ok(await page.getAttribute(cellSelector('scores', 6, 1), 'data-value'));
  // The page's own breakdown under the table too.
  assert.equal(await page.textContent('[data-breakdown="score"]'), 'she·dog = 2.6400×2.8770 + 1.4600×3.0570 + 0.9400×1.8870 = 13.8325');
  const context = card('context.0:6,0');
  await page.click(`${context} [data-action="reveal"]`);
  assert.equal(await page.getAttribute(context, 'data-result'), 'revealed');
  assert.ok(await page.getAttribute(cellSelector('context', 6, 0), 'data-value'));
  const all = await results(page);
  assert.deepEqual(all.map((r) => [r.exercise, r.result, r.score]), [[SHE_DOG, 'revealed', 0], ['context.0:6,0', 'revealed', 0]]);
  assert.equal(typeof all[1].expected, 'number');
});

test('a predicted row stays hidden, lines included, until the learner picks a word', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&predict=weights.0:6`);
  const id = card('weights.0:6');
  const row = await page.$$eval('table[data-matrix="weights"] td[data-row="6"]', (tds) => tds.map((td) => [td.dataset.value ?? null, td.textContent]));
  assert.deepEqual(row, Array(9).fill([null, '?']));
  // Other rows are there.
  assert.ok(await page.getAttribute(cellSelector('weights', 5, 0), 'data-value'));
  await page.click('[data-matrix="weights"] th:text-is("she")').catch(() => {});
  await page.evaluate(() => document.querySelector('table[data-matrix="weights"] tbody tr:nth-child(7) th').click());
  assert.match(await page.textContent('#step-weights figure.lines figcaption'), /^Where “she” looks, head 0: hidden until you answer$/);
  assert.equal(await page.$$eval('svg[data-view="lines"] line', (ls) => ls.filter((l) => Number(l.getAttribute('stroke-opacity')) > 0 && Number(l.dataset.weight) > 0).length), 0);
  // Confirming without a choice says so.
  await page.click(`${id} [data-action="predict"]`);
  assert.equal(await page.textContent(`${id} .exercise-said`), 'Choose a word first.');
  await page.selectOption(`${id} [data-control="predict"]`, { label: 'dog' });
  await page.click(`${id} [data-action="predict"]`);
  assert.equal(await page.getAttribute(id, 'data-result'), 'correct');
  assert.equal(await page.textContent(`${id} .exercise-said`), 'Right: it attends most to “dog”.');
  const weights = await page.evaluate(() => window.attentionExplorer.trace().heads[0].weights[6]);
  assert.equal(Number(await page.getAttribute(cellSelector('weights', 6, 1), 'data-value')), weights[1]);
  assert.match(await page.textContent('figure.lines figcaption'), /most to “dog” \(0\.88\d\d\)/);
  const [result] = await results(page);
  assert.deepEqual([result.kind, result.correct, result.response, result.expected], ['predict', true, 'dog', 'dog']);
});

test('a goal follows every edit, locked matrices refuse typing and the API, and meeting it is a result', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&goal=weights.0:6,4>=0.5&lock=embedding,w_value`);
  const id = card('weights.0:6,4>=0.5');
  assert.equal(await page.getAttribute(`${id} [data-goal-met]`, 'data-goal-met'), 'false');
  assert.match(await page.textContent(id), /Edit the model until weights, head 0, she → ball is at least 0\.5\..*Now 0\.\d{4}: not yet\..*Locked: embedding, w_value\./);
  // Typing into a locked matrix: refused beside the cell, the number kept.
  const w_value = 'table[data-matrix="w_value"] td[data-row="0"][data-col="0"] input';
  const before = await page.evaluate(() => window.attentionExplorer.state().heads[0].w_value[0][0]);
  await page.click(w_value);
  await page.keyboard.type('7');
  assert.match(await page.textContent('table[data-matrix="w_value"] .cell-error'), /^w_value is locked in this exercise: reach it by editing w_query, w_key\. Still using /);
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().heads[0].w_value[0][0]), before);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('embedding', 0, 0, 0, 2)), 'embedding is locked in this exercise: reach it by editing w_query, w_key.');
  // Two edits of W_query's second row, one typed (its keystrokes are one edit) and one by the API.
  const typed = 'table[data-matrix="w_query"] td[data-row="1"][data-col="0"] input';
  await page.click(typed);
  await page.keyboard.type('5.0');
  await page.keyboard.press('Tab');
  assert.equal(await page.getAttribute(id, 'data-result'), 'open');
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 1, 1, -5)), null);
  await page.waitForSelector(`${id}[data-result="correct"]`);
  assert.equal(await page.getAttribute(`${id} [data-goal-met]`, 'data-goal-met'), 'true');
  assert.equal(await page.getAttribute(id, 'data-attempts'), '2');
  assert.equal(await page.textContent(`${id} .exercise-said`), 'Reached in 2 edits.');
  // Met is met: undoing keeps the result, while the live state follows.
  await page.click('[data-action="undo"]');
  assert.equal(await page.getAttribute(`${id} [data-goal-met]`, 'data-goal-met'), 'false');
  assert.equal(await page.getAttribute(id, 'data-result'), 'correct');
  const [result] = await results(page);
  assert.deepEqual([result.kind, result.correct, result.attempts, result.statement.verb.display['en-US']], ['goal', true, 2, 'completed']);
  // The training lab leaves the locked matrices out of what it trains.
  await showLab(page, 'lab-train');
  const trains = await page.$$eval('[data-control="train-param"]', (boxes) => Object.fromEntries(boxes.map((b) => [b.value, b.checked])));
  assert.deepEqual([trains.embedding, trains.w_query, trains.w_key, trains.w_value], [false, true, true, false]);
});

test('an asked number is hidden where else it shows: its twin table, and an asked weight\'s lines', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=scaled_scores.0:6,1;weights.0:6,1`);
  const twin = page.locator(cellSelector('masked_scores', 6, 1));
  assert.deepEqual([await twin.getAttribute('data-value'), await twin.textContent()], [null, '?']);
  await page.evaluate(() => document.querySelector('table[data-matrix="weights"] tbody tr:nth-child(7) th').click());
  assert.match(await page.textContent('figure.lines figcaption'), /hidden until you answer$/);
  await page.click(`${card('scaled_scores.0:6,1')} [data-action="reveal"]`);
  assert.ok(await twin.getAttribute('data-value'), 'shown with its twin');
});

test('a bad exercise parameter is named, and the rest of the page works', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=scores.0:99,1&lock=everything`);
  const message = await page.textContent('.load-message');
  assert.match(message, /The link's ask=“scores\.0:99,1” was ignored: the cell is outside the 9 × 9 matrix\./);
  assert.match(message, /The link's lock=“everything” was ignored: it is not a matrix the learner edits/);
  assert.equal(await page.$$eval('[data-exercise]', (e) => e.length), 0);
  assert.equal(await page.evaluate(() => window.attentionExplorer.edit('w_query', 0, 0, 0, 2)), null);
});

test('embedded in a sandboxed frame, every kind works and posts its results to the course page', async () => {
  const goal = 'weights.0:6,4>=0.5';
  const { course } = await sandboxedPage(env, `${env.base}?preset=dog&embed=1&steps=projections,qkv,scores,weights&ask=${SHE_DOG}&predict=weights.0:6&goal=${goal}&lock=embedding,w_value`);
  await course.evaluate(() => {
    window.received = [];
    addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:result' || e.data?.type === 'attention-explorer:results') window.received.push(e.data); });
  });
  const frame = course.frameLocator('iframe');
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
  await frame.locator(asked(SHE_DOG)).waitFor();
  const inside = course.frames()[1];
  assert.equal(await inside.evaluate(() => self.origin), 'null', 'a sandboxed, opaque origin');
  // The asked value and the predicted row are nowhere in the frame's page.
  const html = await inside.content();
  assert.ok(!html.includes('13.8325') && !html.includes('13.83'), 'the asked value');
  const hiddenRow = await inside.evaluate(() => window.attentionExplorer.trace().heads[0].weights[6].map((w) => w.toFixed(4)));
  for (const w of hiddenRow.filter((w) => w !== '0.0000')) assert.ok(!html.includes(`>${w}<`), `weight ${w}`);

  await frame.locator(asked(SHE_DOG)).fill('1');
  await frame.locator(`${card(SHE_DOG)} [data-action="check"]`).click();
  await frame.locator(asked(SHE_DOG)).fill('13.83');
  await frame.locator(`${card(SHE_DOG)} [data-action="check"]`).click();
  await course.waitForFunction(() => window.received.length === 2);
  const [wrong, right] = await course.evaluate(() => window.received);
  assert.deepEqual([wrong.exercise, wrong.kind, wrong.correct, wrong.score, wrong.attempts, wrong.response, 'expected' in wrong], [SHE_DOG, 'ask', false, 0, 1, '1', false]);
  assert.deepEqual([right.correct, right.score, right.attempts, right.response], [true, 0.75, 2, '13.83']);
  assert.ok(Math.abs(right.expected - 13.8325) < 1e-4);
  assert.equal(right.statement.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
  assert.equal(right.statement.result.score.scaled, 0.75);
  assert.match(right.statement.object.id, /#exercise=scores\.0:6,1$/);

  // Predict.
  await frame.locator(`${card('weights.0:6')} [data-control="predict"]`).selectOption({ label: 'ball' });
  await frame.locator(`${card('weights.0:6')} [data-action="predict"]`).click();
  await course.waitForFunction(() => window.received.length === 3);
  const predicted = (await course.evaluate(() => window.received))[2];
  assert.deepEqual([predicted.kind, predicted.correct, predicted.response, predicted.expected], ['predict', false, 'ball', 'dog']);

  // The goal: a locked matrix refuses typing, then one typed edit and one by the parent's message.
  await frame.locator('table[data-matrix="w_value"] td[data-row="0"][data-col="0"] input').click();
  await course.keyboard.type('9');
  await frame.locator('table[data-matrix="w_value"] .cell-error').waitFor();
  await frame.locator('table[data-matrix="w_query"] td[data-row="1"][data-col="0"] input').click();
  await course.keyboard.type('5');
  await course.keyboard.press('Tab');
  await course.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ type: 'attention-explorer:edit', matrix: 'w_query', head: 0, row: 1, col: 1, value: -5, id: 5 }, '*'));
  await course.waitForFunction(() => window.received.some((m) => m.kind === 'goal'));
  const reached = (await course.evaluate(() => window.received)).find((m) => m.kind === 'goal');
  assert.deepEqual([reached.exercise, reached.correct, reached.score, reached.attempts, reached.statement.verb.display['en-US']], [goal, true, 1, 2, 'completed']);

  // The postMessage twin of results().
  await course.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ type: 'attention-explorer:get-results', id: 7 }, '*'));
  await course.waitForFunction(() => window.received.some((m) => m.type === 'attention-explorer:results'));
  const answer = (await course.evaluate(() => window.received)).find((m) => m.type === 'attention-explorer:results');
  assert.equal(answer.id, 7);
  assert.deepEqual(answer.results.map((r) => [r.exercise, r.result]), [[SHE_DOG, 'correct'], ['weights.0:6', 'incorrect'], [goal, 'correct']]);
  assert.deepEqual(answer.results, await inside.evaluate(() => window.attentionExplorer.results()));
});

test('the exercise maker: pick cells, ask, predict, set a goal, lock; the link and the Embed dialog carry it', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  await page.click('[data-action="author"]');
  await page.waitForSelector('[data-action="author-ask"]');
  // Nothing picked yet: nothing to ask or set a goal on.
  for (const action of ['author-ask', 'author-predict', 'author-goal']) assert.ok(await page.isDisabled(`[data-action="${action}"]`), action);
  await page.click(cellSelector('scores', 6, 1));
  assert.equal(await page.textContent('[data-stat="author_picked"]'), 'Picked: scores Q·Kᵀ, head 0, she → dog.');
  assert.ok(await page.isDisabled('[data-action="author-predict"]'), 'a row of the weights only');
  await page.click('[data-action="author-ask"]');
  await page.click(cellSelector('weights', 6, 4));
  await page.click('[data-action="author-predict"]');
  await page.fill('[data-control="author-bound"]', '0.5');
  await page.click('[data-action="author-goal"]');
  // A bound that cannot be met is refused as a link's would be.
  await page.fill('[data-control="author-bound"]', '2');
  await page.click('[data-action="author-goal"]');
  assert.match(await page.textContent('.author-panel [role="alert"]'), /a weight is between 0 and 1, so this bound cannot be met/);
  for (const name of ['embedding', 'w_value']) await page.check(`[data-control="author-lock"][value="${name}"]`);
  assert.equal(await page.$$eval('.author-list li', (l) => l.length), 3);
  const link = await page.inputValue('[data-export="exercise-link"]');
  assert.match(link, /\?ask=scores\.0:6,1&predict=weights\.0:6&goal=weights\.0:6,4>=0\.5&lock=embedding,w_value#m=/);
  // The Embed dialog carries it, with the steps it needs.
  await page.click('[data-action="author-embed"]');
  await page.waitForSelector('[data-control="embed-step"]');
  assert.match(await page.inputValue('.embed-dialog textarea'), /embed=1&amp;steps=projections,qkv,scores,mask,weights&amp;ask=scores\.0:6,1&amp;predict=weights\.0:6/);
  // The link opens the exercise.
  const { page: learner } = await open(env.browser, link);
  assert.deepEqual(await learner.$$eval('[data-exercise]', (e) => e.map((x) => x.dataset.kind)), ['ask', 'predict', 'goal']);
});

/** The SCORM package the maker writes for `url`'s exercises, at `passMark` % (as a map of its
 * files). */
async function scormPackage(url, passMark) {
  const { page } = await open(env.browser, url);
  await page.click('[data-action="author"]');
  if (passMark !== undefined) await page.fill('[data-control="scorm-pass-mark"]', String(passMark));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="scorm"]')]);
  const files = unzip(await readFile(await download.path()));
  await page.close();
  return files;
}

/** Serves a package's files under /sco/ as an LMS would, with `lms.html` (the LMS's page) and
 * scorm-again's SCORM 1.2 runtime (`scorm12.js`); returns the server and its /sco/ address. */
async function lmsServer(files, lms) {
  const types = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm', css: 'text/css', xml: 'application/xml' };
  const runtime = await readFile(new URL('../../node_modules/scorm-again/dist/scorm12.min.js', import.meta.url));
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice('/sco/'.length));
    const body = name === 'lms.html' ? lms : name === 'scorm12.js' ? runtime : files.get(name);
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[name.split('.').pop()] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sco: `http://127.0.0.1:${server.address().port}/sco/` };
}

test('under scorm-again\'s SCORM 1.2 runtime: Show me, a wrong prediction and a met goal end the attempt as failed at the pass mark, and a relaunch resumes it', async () => {
  const exercises = `ask=${SHE_DOG}&predict=weights.0:6&goal=weights.0:6,4>=0.5&lock=embedding,w_value`;
  const files = await scormPackage(`${env.base}?preset=dog&${exercises}`, 50);
  assert.ok(!files.has('sw.js'), 'no service worker in the package');
  // The LMS: scorm-again's API (errors logged as console errors, which fail the test), with the
  // attempt so far (the last launch's cmi, kept by the test) loaded before the launch.
  const lms = `<!doctype html><title>LMS</title><script src="scorm12.js"></script><script>
    window.API = new Scorm12API({ logLevel: 4 });
    const saved = JSON.parse(decodeURIComponent(location.hash.slice(1)) || 'null');
    if (saved) API.loadFromJSON(saved);
    // What the package set (cmi.core.exit is write-only), and whether it finished.
    window.set = {};
    window.finished = false;
    API.on('LMSSetValue.cmi.*', (element, value) => { set[element] = value; });
    API.on('LMSFinish', () => { finished = true; });
    window.cmi = () => ({ status: API.cmi.core.lesson_status, score: API.cmi.core.score.raw, exit: set['cmi.core.exit'] ?? '', suspend_data: API.cmi.suspend_data });
  </script><iframe src="launch.html" width="900" height="700"></iframe>`;
  const { server, sco } = await lmsServer(files, lms);
  try {
    const { page: first } = await open(env.browser, `${sco}lms.html`, undefined, 'iframe');
    const frame = first.frameLocator('iframe');
    await frame.locator(`${card(SHE_DOG)} [data-action="reveal"]`).click();
    await first.waitForFunction(() => window.cmi().suspend_data.includes('revealed'));
    assert.deepEqual({ ...await first.evaluate(() => window.cmi()), suspend_data: undefined }, { status: 'incomplete', score: '0', exit: '', suspend_data: undefined });
    // The learner leaves midway: the attempt is suspended, its progress with the LMS.
    await first.evaluate(() => { document.querySelector('iframe').src = 'about:blank'; });
    await first.waitForFunction(() => window.cmi().exit === 'suspend');
    const kept = await first.evaluate(() => window.cmi());
    assert.equal(kept.suspend_data, `${SHE_DOG}\trevealed\t0\t\nweights.0:6\topen\t0\t\nweights.0:6,4>=0.5\topen\t0\t\n`);

    // A relaunch (another browser: nothing saved in it) resumes: the asked cell is still revealed.
    const context = await newContext(env);
    const { page: again } = await open(context, `${sco}lms.html#${encodeURIComponent(JSON.stringify({ suspend_data: kept.suspend_data }))}`, undefined, 'iframe');
    const inside = again.frameLocator('iframe');
    await inside.locator(`${card(SHE_DOG)}[data-result="revealed"]`).waitFor();
    await inside.locator(`${card('weights.0:6')} [data-control="predict"]`).selectOption({ label: 'ball' });
    await inside.locator(`${card('weights.0:6')} [data-action="predict"]`).click();
    const app = again.frames().find((f) => f.url().includes('index.html'));
    for (const [col, value] of [[0, 5], [1, -5]]) {
      assert.equal(await app.evaluate(([c, v]) => window.attentionExplorer.edit('w_query', 0, 1, c, v), [col, value]), null);
    }
    // Every exercise final: 0 + 0 + 1 of 3 is 33, under the pass mark of 50.
    await again.waitForFunction(() => window.cmi().status === 'failed');
    assert.equal((await again.evaluate(() => window.cmi())).score, '33');
    await again.evaluate(() => { document.querySelector('iframe').src = 'about:blank'; });
    await again.waitForFunction(() => window.finished && set['cmi.core.exit'] === '');
  } finally {
    server.close();
  }
});

test('the SCORM package: its manifest, and a recording SCORM 1.2 API sees the session, the score, passed and the end', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog&ask=${SHE_DOG}`);
  await page.click('[data-action="author"]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="scorm"]')]);
  assert.equal(download.suggestedFilename(), 'attention-explorer-exercise.zip');
  assert.match(await page.textContent('.author-panel .field-ok'), /^Downloaded attention-explorer-exercise\.zip \(\d+ files, \d+ KB\)/);
  const files = unzip(await readFile(await download.path()));
  await page.close();
  const text = (name) => new TextDecoder().decode(files.get(name));
  const manifest = text('imsmanifest.xml');
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /adlcp:scormtype="sco" href="launch\.html"/);
  for (const name of files.keys()) if (name !== 'imsmanifest.xml') assert.ok(manifest.includes(`<file href="${name}"/>`), name);
  for (const needed of ['index.html', 'launch.html', 'scorm-adapter.js']) assert.ok(files.has(needed), needed);
  for (const part of [/\/__wasm_split\.js$/, /\/split_exercise_cards\.wasm$/]) assert.ok([...files.keys()].some((n) => /^code-[0-9a-f]{16}\//.test(n) && part.test(n)), `the code: ${part}`);
  assert.match(text('launch.html'), /url=index\.html\?embed=1&amp;ask=scores\.0:6,1#m=/);
  assert.match(text('index.html'), /<script src="\.\/scorm-adapter\.js" data-package data-pass-mark="100" defer><\/script><\/head>/);

  // The package served as an LMS would, launched from a page with a recording API.
  const lms = `<!doctype html><title>LMS</title><script>
    window.calls = [];
    const record = (name) => (...args) => { calls.push([name, ...args]); return name === 'LMSGetValue' ? (args[0] === 'cmi.core.lesson_status' ? 'not attempted' : '') : 'true'; };
    window.API = Object.fromEntries(['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError', 'LMSGetErrorString', 'LMSGetDiagnostic'].map((n) => [n, record(n)]));
  </script><iframe src="launch.html" width="900" height="700"></iframe>`;
  const types = { html: 'text/html', js: 'text/javascript', wasm: 'application/wasm', css: 'text/css', xml: 'application/xml' };
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice('/sco/'.length));
    const body = name === 'lms.html' ? lms : files.get(name);
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[name.split('.').pop()] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { page: course } = await open(env.browser, `http://127.0.0.1:${server.address().port}/sco/lms.html`, undefined, 'iframe');
    const frame = course.frameLocator('iframe');
    await frame.locator(asked(SHE_DOG)).fill('13.83');
    await frame.locator(`${card(SHE_DOG)} [data-action="check"]`).click();
    await course.waitForFunction(() => calls.some(([n, k, v]) => n === 'LMSSetValue' && k === 'cmi.core.lesson_status' && v === 'passed'));
    // The page closes: the session ends.
    await course.evaluate(() => { document.querySelector('iframe').src = 'about:blank'; });
    await course.waitForFunction(() => calls.some(([n]) => n === 'LMSFinish'));
    const calls = await course.evaluate(() => window.calls);
    const set = Object.fromEntries(calls.filter(([n]) => n === 'LMSSetValue').map(([, k, v]) => [k, v]));
    assert.deepEqual(calls[0], ['LMSInitialize', '']);
    assert.deepEqual(set, {
      'cmi.core.score.min': '0', 'cmi.core.score.max': '100', 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '100',
      'cmi.suspend_data': `${SHE_DOG}\tcorrect\t1\t13.83\n`, 'cmi.core.exit': '',
    });
    assert.ok(calls.findIndex(([n]) => n === 'LMSCommit') > 0);
    assert.deepEqual(calls.at(-1), ['LMSFinish', '']);
  } finally {
    server.close();
  }
});
