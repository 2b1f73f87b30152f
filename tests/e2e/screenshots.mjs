// Saves the screenshots: `node tests/e2e/screenshots.mjs [scenario…]` runs the scenarios of
// screens.mjs (all by default) at every device and scheme, with the harness's server and browser,
// and prints each file written to tests/e2e/output/. Not a test (CI runs screens.test.mjs, the
// same scenarios without pictures); it exits non-zero if a page reported an error.
import { relative } from 'node:path';
import { startBrowser, stopBrowser, cleanUp, picture, output } from './harness.mjs';
import { SCENARIOS, DEVICES, SCHEMES } from './screens.mjs';

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !Object.hasOwn(SCENARIOS, name));
if (unknown.length) {
  console.error(`No scenario ${unknown.join(', ')}: choose from ${Object.keys(SCENARIOS).join(', ')}.`);
  process.exit(2);
}

const shot = async (target, name, options) => {
  const path = output(name);
  await picture(target, path, options);
  console.log(relative(process.cwd(), path));
};

const env = await startBrowser();
try {
  for (const name of asked.length ? asked : Object.keys(SCENARIOS)) {
    for (const [device, viewport] of Object.entries(DEVICES)) {
      for (const scheme of SCHEMES) {
        await SCENARIOS[name](env, { device, viewport, scheme, shot });
        const problems = await cleanUp(env);
        if (problems.length) {
          console.error(`${name}, ${device}, ${scheme}:\n  ${problems.join('\n  ')}`);
          process.exitCode = 1;
        }
      }
    }
  }
} finally {
  await cleanUp(env);
  await stopBrowser(env);
}
