// JupyterLab for the notebook widget's test and benchmark: `jupyter lab` on 127.0.0.1 from the
// environment the test command made (target/notebook-env, the widget's wheel installed there),
// with fresh settings, a notebook of given cells, and headless Chromium that resolves no host
// but this machine.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, projectRoot, eventually } from './harness.mjs';

const ENV = process.env.NOTEBOOK_ENV ?? join(projectRoot, 'target/notebook-env');
const JUPYTER = join(ENV, 'bin/jupyter');
/** Why JupyterLab cannot run here, or false. */
export const missing = existsSync(JUPYTER) ? false
  : `no ${JUPYTER}: the test command (.ci/test.sh) makes it and installs the widget's wheel there`;

function notebook(cells) {
  return JSON.stringify({
    nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: cells.map((source, i) => ({ cell_type: 'code', id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
  });
}

/** Starts `jupyter lab` on a folder holding `explorer.ipynb` of `cells` and `files` (name →
 * text), and a browser; `stop()` ends both. */
export async function startLab(cells, files = {}) {
  const lab = {};
  const home = mkdtempSync(join(tmpdir(), 'notebook-'));
  const root = join(home, 'work');
  mkdirSync(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  writeFileSync(join(root, 'explorer.ipynb'), notebook(cells));
  // No "get notified about Jupyter news?" toast over the screenshots (and no asking the web).
  const settings = join(home, 'settings/@jupyterlab/apputils-extension');
  mkdirSync(settings, { recursive: true });
  writeFileSync(join(settings, 'notification.jupyterlab-settings'), JSON.stringify({ fetchNews: 'false' }));
  lab.token = Math.random().toString(36).slice(2);
  // Fresh Jupyter folders: no settings (the theme) from another run.
  const env = {
    ...process.env, JUPYTER_CONFIG_DIR: join(home, 'config'), JUPYTER_DATA_DIR: join(home, 'data'),
    JUPYTER_RUNTIME_DIR: join(home, 'runtime'), JUPYTERLAB_WORKSPACES_DIR: join(home, 'workspaces'),
    JUPYTERLAB_SETTINGS_DIR: join(home, 'settings'),
    IPYTHONDIR: join(home, 'ipython'), PATH: `${join(ENV, 'bin')}:${process.env.PATH}`,
  };
  lab.server = spawn(JUPYTER, ['lab', '--no-browser', '--allow-root', '--ip=127.0.0.1', '--port=0',
    `--IdentityProvider.token=${lab.token}`, `--ServerApp.root_dir=${root}`,
    // The page's scripts reach the app (to run a cell as the Run menu does).
    '--LabApp.expose_app_in_browser=True', '--JupyterNotebookApp.expose_app_in_browser=True'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  lab.base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`jupyter lab did not start:\n${log}`)), 90_000);
    const read = (chunk) => {
      log += chunk;
      const url = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(log);
      if (url) { clearTimeout(timer); resolve(`http://127.0.0.1:${url[1]}`); }
    };
    lab.server.stdout.on('data', read);
    lab.server.stderr.on('data', read);
  });
  // The network is cut: no name resolves but this machine's.
  lab.browser = await launch(['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1']);
  lab.stop = async () => {
    await lab.browser.close();
    lab.server.kill('SIGTERM');
  };
  return lab;
}

/** JupyterLab (or Notebook 7's `/notebooks/`) on the notebook in `theme`, in `context` (default a
 * new page of the browser), the kernel idle; what its pages ask of other hosts, and the explorer
 * frames' errors. */
export async function openNotebook(lab, { theme = 'light', app = 'lab/tree', context = lab.browser } = {}) {
  const page = await context.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: theme });
  const away = [];
  const errors = [];
  page.on('request', (request) => {
    const { hostname } = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(hostname) && !/^(data|blob):/.test(request.url())) away.push(request.url());
  });
  // Only the explorer's frames (served from localhost while Jupyter is on 127.0.0.1): JupyterLab
  // and Notebook 7 log errors of their own (a command another plugin has not registered, …).
  const ours = (url) => url?.startsWith('http://localhost:');
  page.on('console', (message) => {
    if (message.type() === 'error' && ours(message.location().url)) errors.push(message.text());
  });
  page.on('pageerror', (error) => { if (/http:\/\/localhost:/.test(error.stack)) errors.push(String(error)); });
  await page.goto(`${lab.base}/${app}/explorer.ipynb?token=${lab.token}${app === 'lab/tree' ? '&reset' : ''}`);
  await page.waitForFunction(() => {
    const kernel = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
    return kernel?.status === 'idle' && kernel.connectionStatus === 'connected';
  }, null, { timeout: 90_000, polling: 100 });
  if (theme === 'dark') {
    await page.evaluate(() => window.jupyterapp.commands.execute('apputils:change-theme', { theme: 'JupyterLab Dark' }));
    await page.waitForFunction(() => document.body.dataset.jpThemeLight === 'false');
  }
  return { page, away, errors };
}

/** Runs cell `i` as Shift+Enter does and returns its printed output once there. */
export async function run(page, i, { printed = true } = {}) {
  await page.evaluate(async (i) => {
    const notebook = window.jupyterapp.shell.currentWidget.content;
    notebook.activeCellIndex = i;
    notebook.deselectAll();
    await window.jupyterapp.commands.execute('notebook:run-cell');
  }, i);
  if (!printed) return '';
  const text = () => page.locator('.jp-Notebook .jp-Cell').nth(i).locator('.jp-OutputArea-output').allInnerTexts().then((t) => t.join('\n').trim());
  const out = await eventually(text, (t) => t !== '', { timeout: 30_000 });
  assert.ok(!/Traceback|Error/.test(out) || out.startsWith('ValueError:'), `cell ${i}:\n${out}`);
  return out;
}

