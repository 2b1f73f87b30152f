import { startServer, launch } from './harness.mjs';
const { server, base } = await startServer();
const browser = await launch();
const out = '/tmp/wt9-shots';
for (const [name, url, vp, scheme] of [
  ['full-light', '?preset=dog', { width: 1280, height: 900 }, 'light'],
  ['full-dark', '?preset=dog', { width: 1280, height: 900 }, 'dark'],
  ['phone-dark', '?preset=dog', { width: 390, height: 844 }, 'dark'],
  ['embed-light', 'embed-example.html', { width: 1000, height: 1400 }, 'light'],
  ['embed-dark-theme', '?embed=1&preset=raschka&steps=weights&controls=dims&theme=dark', { width: 700, height: 700 }, 'light'],
  ['phone-embed', '?embed=1&preset=dog&steps=scores,weights&focus=6', { width: 390, height: 844 }, 'light'],
]) {
  const ctx = await browser.newContext({ viewport: vp, colorScheme: scheme });
  const page = await ctx.newPage();
  await page.goto(base + url);
  await page.waitForTimeout(2500);
  if (name.startsWith('full')) {
    await page.fill('table[data-matrix="w_key"] td[data-row="0"][data-col="0"] input', '3');
    await page.click('[data-action="embed"]');
    await page.click('[data-action="copy-pytorch"]');
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${out}/${name}-controls.png`, clip: { x: 0, y: 150, width: 1280, height: 900 } });
    await page.goto(base + '?preset=raschka');
    await page.waitForTimeout(1500);
  }
  await page.screenshot({ path: `${out}/${name}.png` });
  await ctx.close();
}
await browser.close(); server.close();
