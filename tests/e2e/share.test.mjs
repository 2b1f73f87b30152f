// End-to-end: the URL follows the state, the work is saved and offered back, and embed mode in
// a course page (sandboxed frames, their height, the postMessage API).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, open, newContext, newPage, watch, cellSelector, coreTrace, assertSameTrace, written, linkSettled, eventually, trace } from './harness.mjs';

const env = useBrowser();

test('an edit survives a reload, and the URL opens the same trace in a fresh browser', async () => {
  const context = await newContext(env);
  const { page, errors } = await open(context, `${env.base}?preset=raschka`);
  await page.fill(`${cellSelector('w_query', 1, 0)} input`, '-0.75');
  await page.click('[data-token="2"]');
  await written(page);
  const url = page.url();
  assert.ok(url.length < 400, `a short link: ${url.length} characters`);
  const before = await trace(page);
  await page.reload();
  await page.waitForSelector('[data-matrix="weights"]');
  assert.equal(await page.getAttribute(cellSelector('w_query', 1, 0), 'data-value'), '-0.75');
  assert.equal(await page.getAttribute('[data-token="2"]', 'aria-pressed'), 'true', 'the followed token');

  const fresh = await newContext(env);
  const { page: other, errors: otherErrors } = await open(fresh, url);
  assert.deepEqual(await trace(other), before);
  assertSameTrace(await trace(other), coreTrace(JSON.stringify(await page.evaluate(() => window.attentionExplorer.state()))));
  assert.deepEqual([...errors, ...otherErrors], []);
});

test('the URL carries hidden steps, decimals and faces; a bad link says what it refused', async () => {
  const context = await newContext(env);
  const { page } = await open(context, `${env.base}?preset=dog`);
  await page.click('#step-scale [data-action="toggle-step"]');
  await page.fill('[data-control="precision"]', '2');
  await page.click('figure:has(table[data-matrix="weights"]) [data-action="toggle-view"]');
  // All three, whichever write they arrive in (a slow machine may write between them).
  await page.waitForFunction(() => ['hide=scale', 'decimals=2', 'faces='].every((p) => location.hash.includes(p)));
  assert.match(page.url(), /hide=scale/);
  const { page: again } = await open(context, page.url());
  assert.equal(await again.$('#step-scale table'), null, 'still hidden');
  assert.equal(await again.inputValue('[data-control="precision"]'), '2');
  assert.ok(await again.$('canvas[data-matrix="weights"]'), 'still a heat map');

  const { page: bad } = await open(context, `${env.base}?preset=dog&focus=99&steps=nope#m=AAAA`);
  const message = await bad.textContent('.load-message');
  assert.match(message, /state could not be read/);
  assert.match(message, /focus=“99” was ignored/);
  assert.match(message, /no step “nope”/);
});

test('saved work is offered back after a link, and Reset can be undone', async () => {
  const context = await newContext(env);
  const { page, errors } = await open(context, `${env.base}?preset=dog`);
  await page.fill(`${cellSelector('w_key', 0, 0)} input`, '3');
  await written(page);
  const mine = await trace(page);

  // A page opened without a model brings the work back by itself.
  const { page: plain } = await open(context, env.base);
  assert.deepEqual(await trace(plain), mine);
  assert.ok(await plain.$('.work-note [data-action="reset"]'));

  // A link's model wins, and the work is offered.
  const { page: link } = await open(context, `${env.base}?preset=raschka`);
  assert.notDeepEqual(await trace(link), mine);
  await link.click('[data-action="restore"]');
  assert.deepEqual(await trace(link), mine);
  assert.equal(await link.$('[data-action="restore"]'), null, 'offered once');

  await link.click('.edit-bar [data-action="reset"]');
  assertSameTrace(await trace(link), coreTrace(null, 'raschka'));
  await link.click('[data-action="undo"]');
  assert.deepEqual(await trace(link), mine, 'Undo brings the work back');

  // Damaged saved work is named, not used (after the page's last write: the link and the saved
  // work are written together, once changes pause).
  await linkSettled(link);
  await link.evaluate(() => localStorage.setItem('attention-explorer:work', 'm=AAAA'));
  const { page: damaged } = await open(context, env.base);
  const said = await damaged.textContent('.load-message');
  assert.match(said, /^Your saved work could not be read \(.*\) and is not used\.$/);
  assert.equal(said.match(/could not be read/g).length, 1, `said once: ${said}`);
  assertSameTrace(await trace(damaged), coreTrace(null, 'dog'));
  assert.deepEqual(errors, []);
});

/** Opens the shipped course page and waits for both explorers in it. */
async function coursePage() {
  const { page, errors } = await open(env.browser, `${env.base}embed-example.html`, { width: 1000, height: 800 }, 'iframe');
  await page.waitForFunction(() => document.querySelectorAll('iframe[data-attention-explorer]').length === 2);
  const frames = [];
  for (const handle of await page.$$('iframe[data-attention-explorer]')) {
    const frame = await handle.contentFrame();
    await frame.waitForSelector('[data-matrix="weights"]');
    frames.push(frame);
  }
  return { page, frames, errors };
}

test('the course page embeds sandboxed steps that fit their frames', async () => {
  const { page, frames, errors } = await coursePage();
  const [dog] = frames;
  assert.equal(await dog.evaluate(() => self.origin), 'null', 'a sandboxed, opaque origin');
  assert.deepEqual(await dog.$$eval('section[id^="step-"]', (s) => s.map((e) => e.id)), ['step-scores', 'step-weights']);
  assert.equal(await dog.$('header.intro'), null);
  assert.equal(await dog.$('.controls'), null, 'controls=none by default');
  assert.equal(await dog.$eval('table[data-matrix="weights"] tbody tr.selected td', (td) => td.dataset.row), '6', 'focus=6 is followed');
  assert.ok(await dog.$('[data-action="open-full"]'));
  // The parent's script sets each frame's height to what the page posted. (Chromium renders a
  // cross-origin frame out of sight only once it is scrolled to: its height comes then.)
  for (const frame of await page.$$('iframe')) {
    await frame.scrollIntoViewIfNeeded();
    await page.waitForFunction((f) => f.style.height, frame);
  }
  // Heat maps and fonts may still move the height a little: the last height posted wins.
  const heights = async () => [
    await page.$$eval('iframe', (fs) => fs.map((f) => parseInt(f.style.height, 10))),
    await Promise.all(frames.map((f) => f.evaluate(() => document.body.offsetHeight))),
  ];
  const [fit, content] = await eventually(heights, ([fit, content]) => JSON.stringify(fit) === JSON.stringify(content));
  assert.deepEqual(fit, content);
  assert.ok(await frames[1].$('.controls [data-control="d_k"]'), 'controls=dims');
  assert.equal(await frames[1].$('.controls [data-control="seed"]'), null);
  assert.deepEqual(errors, []);
});

test('the parent page loads, edits and reads the trace by postMessage', async () => {
  const { page, frames, errors } = await coursePage();
  // Live, its messages listened to (the tables come before, in the HTML).
  await frames[0].waitForSelector('html[data-ready="true"]', { state: 'attached' });
  const state = JSON.parse(JSON.stringify(await (async () => {
    const { page: p } = await open(env.browser, `${env.base}?preset=raschka`);
    const s = await p.evaluate(() => window.attentionExplorer.state());
    await p.close();
    return s;
  })()));
  const replies = await page.evaluate(async (state) => {
    const frame = document.querySelector('iframe').contentWindow;
    const answers = [];
    const wait = (type) => new Promise((resolve) => {
      const on = (e) => { if (e.source === frame && e.data?.type === type) { removeEventListener('message', on); resolve(e.data); } };
      addEventListener('message', on);
    });
    // Ignored: not an object, another type.
    frame.postMessage('attention-explorer:get-trace', '*');
    frame.postMessage({ type: 'something-else' }, '*');
    let next = wait('attention-explorer:result');
    frame.postMessage({ type: 'attention-explorer:load', state, id: 1 }, '*');
    answers.push(await next);
    next = wait('attention-explorer:result');
    frame.postMessage({ type: 'attention-explorer:edit', matrix: 'w_query', head: 0, row: 1, col: 0, value: -0.75, id: 2 }, '*');
    answers.push(await next);
    next = wait('attention-explorer:result');
    frame.postMessage({ type: 'attention-explorer:edit', matrix: 'w_query', head: 0, row: 9, col: 0, value: 1, id: 3 }, '*');
    answers.push(await next);
    next = wait('attention-explorer:result');
    frame.postMessage({ type: 'attention-explorer:load', state: { version: 7 }, id: 4 }, '*');
    answers.push(await next);
    next = wait('attention-explorer:trace');
    frame.postMessage({ type: 'attention-explorer:get-trace', id: 5 }, '*');
    answers.push(await next);
    return answers;
  }, state);
  assert.deepEqual(replies.slice(0, 2).map((r) => [r.id, r.error]), [[1, null], [2, null]]);
  assert.match(replies[2].error, /row 9 is out of range/);
  assert.match(replies[3].error, /version/);
  assert.equal(replies[4].id, 5);
  state.heads[0].w_query[1][0] = -0.75;
  assertSameTrace(replies[4].trace, coreTrace(JSON.stringify(state)));
  assert.deepEqual(errors, []);
});

test("a course page's messages posted as soon as its frame loads are answered once the explorer is live", async () => {
  // The frame's load comes with its tables from the build, before the explorer listens: the
  // messages wait in boot.js and are answered in their order.
  const course = await newPage(env);
  const errors = watch(course, env.base);
  await course.setContent(`<iframe src="${env.base}?preset=dog&amp;embed=1&amp;steps=weights" sandbox="allow-scripts" width="800" height="700"></iframe>
<script>
  window.answers = [];
  addEventListener('message', (e) => { if (e.data?.type === 'attention-explorer:result') answers.push(e.data); });
  document.querySelector('iframe').addEventListener('load', (e) => {
    const frame = e.target.contentWindow;
    frame.postMessage({ type: 'attention-explorer:edit', matrix: 'w_query', head: 0, row: 0, col: 0, value: 0.5, id: 1 }, '*');
    frame.postMessage({ type: 'attention-explorer:edit', matrix: 'w_query', head: 0, row: 0, col: 0, value: 0.25, id: 2 }, '*');
  }, { once: true });
</script>`);
  const frame = course.frames()[1];
  await course.waitForFunction(() => answers.length === 2);
  assert.deepEqual(await course.evaluate(() => answers.map((a) => [a.id, a.error])), [[1, null], [2, null]]);
  assert.equal(await frame.evaluate(() => window.attentionExplorer.state().heads[0].w_query[0][0]), 0.25);
  assert.deepEqual(errors, []);
});

test('the explorer tells its parent its state: on opening, a moment after a change, and when asked', async () => {
  const { page, frames, errors } = await coursePage();
  const [dog] = frames;
  // Asked: the state the page holds.
  const asked = await page.evaluate(() => new Promise((resolve) => {
    const frame = document.querySelector('iframe').contentWindow;
    addEventListener('message', (e) => { if (e.source === frame && e.data?.type === 'attention-explorer:state' && e.data.id === 7) resolve(e.data.state); });
    frame.postMessage({ type: 'attention-explorer:get-state', id: 7 }, '*');
  }));
  assert.deepEqual(asked, await dog.evaluate(() => window.attentionExplorer.state()));
  // Unasked, after a change made in the frame (as a learner's), once: the edited number in it.
  const posted = page.evaluate(() => new Promise((resolve) => {
    const frame = document.querySelector('iframe').contentWindow;
    const seen = [];
    addEventListener('message', (e) => {
      if (e.source === frame && e.data?.type === 'attention-explorer:state') seen.push(e.data);
      if (seen.length === 1) setTimeout(() => resolve(seen), 1500);
    });
  }));
  await dog.evaluate(() => { window.attentionExplorer.edit('w_query', 0, 0, 0, 4.5); window.attentionExplorer.edit('w_query', 0, 0, 0, 5.5); });
  const after = await posted;
  assert.equal(after.length, 1, 'two edits in one task post once');
  assert.equal(after[0].id, undefined);
  assert.equal(after[0].state.heads[0].w_query[0][0], 5.5);
  // On opening: a frame loaded again posts the state it opens with.
  const opening = await page.evaluate(() => new Promise((resolve) => {
    const element = document.querySelector('iframe');
    addEventListener('message', (e) => { if (e.source === element.contentWindow && e.data?.type === 'attention-explorer:state') resolve(e.data.state); });
    element.src = element.src;
  }));
  assert.equal(opening.sentence, 'The dog fetched the ball and she was happy');
  assert.deepEqual(errors, []);
});

test('a reload right after an edit offers it back (the link is written once edits pause)', async () => {
  const { page } = await open(env.browser, `${env.base}?preset=dog`);
  // In one task: the URL the reload asks for is still the one from before the edit.
  const reloaded = page.waitForEvent('load');
  await page.evaluate(() => { window.attentionExplorer.edit('w_query', 0, 0, 0, 7); location.reload(); }).catch(() => {});
  await reloaded;
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().heads[0].w_query[0][0]), 0.5);
  await page.click('[data-action="restore"]');
  assert.equal(await page.evaluate(() => window.attentionExplorer.state().heads[0].w_query[0][0]), 7);
});
