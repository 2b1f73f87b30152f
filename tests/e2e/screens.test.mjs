// End-to-end: every screenshot scenario (screens.mjs) at every device and scheme, with no picture
// taken. As in every test, a console error on any page fails it; a scenario that returns its page
// asks that the page be no wider than its screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, overflow, renderEveryStep } from './harness.mjs';
import { SCENARIOS, DEVICES, SCHEMES } from './screens.mjs';

const env = useBrowser();
const shot = async () => {};

for (const [name, scenario] of Object.entries(SCENARIOS)) {
  for (const [device, viewport] of Object.entries(DEVICES)) {
    for (const scheme of SCHEMES) {
      test(`${name}: ${device}, ${scheme}`, async () => {
        const page = await scenario(env, { device, viewport, scheme, shot });
        if (!page) return;
        // As a picture draws them: a step skipped out of sight (content-visibility) hides its width.
        await renderEveryStep(page);
        const wider = await overflow(page);
        assert.ok(wider <= 0, `the page is ${wider}px wider than the screen`);
      });
    }
  }
}
