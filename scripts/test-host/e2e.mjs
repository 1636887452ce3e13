// Shared helpers for running a real VS Code (code-server 4.100.3 = VS Code 1.100.3) offline,
// driven by headless Chromium through playwright-core. Used by run-extension-tests.mjs and by
// end-to-end UI tests under test/e2e/. Install code-server first: bash scripts/test-host/install.sh
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { URLSearchParams } from 'node:url';
import { chromium } from 'playwright-core';

export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_DIR =
  process.env.CODE_SERVER_DIR ||
  path.join(os.homedir(), '.cache', 'context-control', `code-server-${CODE_SERVER_VERSION}`);
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const DEFAULT_SETTINGS = {
  'security.workspace.trust.enabled': false, // otherwise the trust prompt blocks activation
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
};

/** A free TCP port on 127.0.0.1, chosen by the OS. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Kill a detached child's whole process group (code-server + its extension host, pty host, ...). */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * Start code-server on a free port with a fresh user-data-dir and extensions-dir.
 * @param {object} o
 * @param {string} o.workspace absolute folder to open
 * @param {string} [o.extensionDevelopmentPath] absolute extension folder (development mode)
 * @param {string} [o.extensionTestsPath] absolute path of a module exporting run() (test-electron contract)
 * @param {object} [o.settings] extra user settings
 * @param {(line: string) => void} [o.onOutput] receives code-server's stdout/stderr lines
 * @returns {Promise<{url: string, port: number, dataDir: string, exited: Promise<void>, stop: () => Promise<void>}>}
 *   `exited` settles when code-server exits (for any reason); always call stop().
 */
export async function startCodeServer({ workspace, extensionDevelopmentPath, extensionTestsPath, settings, onOutput } = {}) {
  if (!fs.existsSync(path.join(CODE_SERVER_DIR, '.install-complete'))) {
    throw new Error(`code-server is not installed in ${CODE_SERVER_DIR}; run: bash scripts/test-host/install.sh`);
  }
  for (const [name, p] of Object.entries({ workspace, extensionDevelopmentPath, extensionTestsPath })) {
    if (p !== undefined && !path.isAbsolute(p)) throw new Error(`${name} must be an absolute path: ${p}`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-code-server-'));
  const userDataDir = path.join(dataDir, 'user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...settings }, null, 2),
  );
  const port = await freePort();
  const args = [
    'out/node/entry.js',
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--config', path.join(dataDir, 'config.yaml'),
    '--user-data-dir', userDataDir,
    '--extensions-dir', path.join(dataDir, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
  ];
  const child = spawn(process.execPath, args, {
    cwd: CODE_SERVER_DIR,
    detached: true, // own process group, so stop() reaches the extension host too
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: dataDir, XDG_DATA_HOME: dataDir },
  });
  const exitHook = () => { // last resort if our process exits without stop() (e.g. on a signal)
    killGroup(child, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', exitHook);
  let exited = false;
  const exitedPromise = new Promise((r) => child.on('exit', () => r((exited = true))));
  const recent = []; // last output lines, shown if start-up fails
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const l of lines) {
        recent.push(l);
        if (recent.length > 40) recent.shift();
        onOutput?.(l);
      }
    });
  }

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child, 'SIGTERM'); // the whole group: children outlive a crashed code-server
    await Promise.race([exitedPromise, sleep(5000)]);
    killGroup(child, 'SIGKILL');
    process.off('exit', exitHook);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exited) throw new Error(`code-server exited during startup (code ${child.exitCode})`);
      if (Date.now() > deadline) throw new Error('code-server did not answer /healthz within 60 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) break;
      } catch {
        /* not listening yet */
      }
      await sleep(200);
    }
  } catch (e) {
    await stop();
    e.message += `\n--- code-server output ---\n${recent.join('\n')}`;
    throw e;
  }
  const url = workbenchUrl({ port, workspace, extensionDevelopmentPath, extensionTestsPath });
  return { url, port, dataDir, exited: exitedPromise, stop };
}

/** The workbench URL; extension paths go through the payload as vscode-remote:// URIs. */
export function workbenchUrl({ port, workspace, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['skipWelcome', 'true']];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const q = new URLSearchParams();
  // A .code-workspace file opens as a (multi-root) workspace; a folder as a folder.
  if (workspace) q.set(workspace.endsWith('.code-workspace') ? 'workspace' : 'folder', workspace);
  q.set('payload', JSON.stringify(payload));
  return `http://127.0.0.1:${port}/?${q}`;
}

/** Headless Chromium (Debian package) with a fresh temporary profile. */
export function launchBrowser({ headless = true } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * Open the workbench in a new page and wait until it is rendered.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url from startCodeServer()
 * @param {object} [o]
 * @param {(type: string, args: unknown) => void} [o.onLog] receives codeAutomationLog(type, args)
 * @param {(code: number) => void} [o.onExit] receives codeAutomationExit(code) (end of an extension test run)
 * @param {{width: number, height: number}} [o.viewport]
 * @param {number} [o.timeout] ms to wait for the workbench (default 60 s)
 * @returns {Promise<import('playwright-core').Page>}
 */
export async function openWorkbench(browser, url, { onLog, onExit, viewport = { width: 1400, height: 900 }, timeout = 60_000 } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (onLog) await page.exposeFunction('codeAutomationLog', (type, args) => onLog(type, args));
  if (onExit) await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
  return page;
}
