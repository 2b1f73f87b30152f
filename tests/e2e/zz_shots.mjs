import { chromium } from 'playwright-core';
import { startServer } from '/work/main/tests/e2e/harness.mjs';
const { server, base } = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
for (const [device, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  for (const scheme of ['light', 'dark']) {
    const tag = `${device}-${scheme}`;
    const page = await browser.newPage({ viewport, colorScheme: scheme });
    page.on('console', (m) => { if (m.type() === 'error') console.log(tag, 'CONSOLE', m.text().slice(0, 200)); });
    await page.goto(`${base}?preset=dog&theme=${scheme}`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    await page.selectOption('[data-control="positions"]', 'rope_half');
    await page.waitForSelector('.field-offer');
    await page.locator('.controls').screenshot({ path: `/tmp/shots/rope-offer-${tag}.png` });
    await page.click('[data-action="rope-even-dk"]');
    await page.$eval('#lab-order', (l) => l.scrollIntoView());
    await page.waitForSelector('[data-stat="order_max_diff"]');
    await page.locator('.lab-positions').screenshot({ path: `/tmp/shots/order-positions-${tag}.png` });
    await page.close();
    const g = await browser.newPage({ viewport, colorScheme: scheme });
    await g.goto(`${base}?preset=dog&theme=${scheme}#target=0:6,1&faces=w_query.0:gradient`);
    await g.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    await g.check('[data-control="output-projection"]');
    const fig = g.locator('figure:has(table[data-matrix="w_output"])').first();
    await fig.locator('[data-action="toggle-gradient"]').click();
    await g.waitForSelector('table[data-matrix="w_output"][data-view="gradient"]');
    await fig.screenshot({ path: `/tmp/shots/w-output-grad-${tag}.png` });
    await g.locator('figure:has(table[data-matrix="w_query"][data-view="gradient"])').first().screenshot({ path: `/tmp/shots/w-query-grad-${tag}.png` });
    await g.$eval('#lab-train', (l) => l.scrollIntoView());
    await g.waitForSelector('[data-action="train-step"]');
    await g.locator('#lab-train').screenshot({ path: `/tmp/shots/train-lab-${tag}.png` });
    await g.close();
    const e = await browser.newPage({ viewport, colorScheme: scheme });
    await e.goto(`${base}?preset=dog&theme=${scheme}&goal=weights.0:6,4>=0.5&lock=embedding,w_value`);
    await e.waitForSelector('[data-goal-echo]');
    await e.locator('#step-projections').screenshot({ path: `/tmp/shots/goal-echo-${tag}.png` });
    await e.click('[data-action="author"]');
    await e.waitForSelector('.author-panel');
    await e.click('table[data-matrix="scores"] td[data-row="6"][data-col="1"]');
    await e.screenshot({ path: `/tmp/shots/maker-${tag}.png` });
    await e.close();
    const w = await browser.newPage({ viewport, colorScheme: scheme });
    await w.goto(`${base}?preset=dog&theme=${scheme}&walk=1`);
    await w.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    for (let i = 0; i < 30; i++) {
      const label = await w.textContent('[data-action="walk-next"]');
      if (label === 'Finish') break;
      await w.click('[data-action="walk-next"]');
    }
    await w.waitForTimeout(800);
    await w.screenshot({ path: `/tmp/shots/walk-last-${tag}.png` });
    const h = await w.$eval('.walk', (el) => el.getBoundingClientRect().height);
    console.log(tag, 'walk card height', h, 'of', viewport.height);
    await w.close();
  }
}
await browser.close(); server.close();
