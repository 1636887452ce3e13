#!/usr/bin/env node
// Runs extension-host tests in a real VS Code (code-server) through headless Chromium.
// Usage: node scripts/test-host/run-extension-tests.mjs --extension <abs ext dir>
//          --tests <abs compiled tests index.js> --workspace <abs folder, or a .code-workspace file>
//          [--label integration] [--timeout-ms N]
// A .code-workspace file is opened as a multi-root workspace: its folder (the file and the folders it names) is copied.
// The tests module follows the @vscode/test-electron contract (exports run()) and must log
//   @@RESULT {"passed":N,"failed":M}
// (test/integration/index.ts does). Last line printed: "<label>: N passed, M failed".
// Env: CC_TEST_VERBOSE=1 also forwards code-server's own output and workbench log noise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, openWorkbench, startCodeServer } from './e2e.mjs';

const { values: opt } = parseArgs({
  options: {
    extension: { type: 'string' },
    tests: { type: 'string' },
    workspace: { type: 'string' },
    label: { type: 'string', default: 'integration' },
    'timeout-ms': { type: 'string', default: String(10 * 60_000) },
  },
});
const label = opt.label;
const verbose = process.env.CC_TEST_VERBOSE === '1';
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const info = (msg) => console.log(`[${label}] ${msg}`);

let result; // {passed, failed} from the sentinel
let finish; // resolves with the exit code reported by the workbench
const exited = new Promise((r) => (finish = r));

// Lines reach us through codeAutomationLog (and as a fallback the page console); dedupe the sentinel.
function onLine(line, forward) {
  const m = /@@RESULT (\{.*\})/.exec(line);
  if (m) {
    if (!result) {
      try {
        result = JSON.parse(m[1]);
      } catch {
        /* malformed: ignore */
      }
    }
    return;
  }
  if (forward) console.log(line);
}

// codeAutomationLog carries the workbench log, which includes the extension host's console output
// (without a prefix). Forward it all except the workbench's own start-up chatter and the failed
// (offline) extension gallery queries.
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /ENOTFOUND|EAI_AGAIN|open-vsx\.org|extensionquery/,
];
function onAutomationLog(type, args) {
  const text = Array.isArray(args) ? args.map(String).join(' ') : String(args);
  onLine(text, verbose || !NOISE.some((re) => re.test(text)));
}

async function main() {
  for (const k of ['extension', 'tests', 'workspace']) {
    if (!opt[k]) throw new Error(`missing --${k} (see usage at the top of ${path.basename(import.meta.filename)})`);
    opt[k] = path.resolve(opt[k]);
    if (!fs.existsSync(opt[k])) throw new Error(`--${k} does not exist: ${opt[k]}`);
  }
  // Tests may write into the workspace: give them a copy (of a .code-workspace file, the folder that holds it).
  const wsCopy = fs.mkdtempSync(path.join(os.tmpdir(), `cc-${label}-ws-`));
  const workspaceFile = opt.workspace.endsWith('.code-workspace');
  fs.cpSync(workspaceFile ? path.dirname(opt.workspace) : opt.workspace, wsCopy, { recursive: true });
  process.on('exit', () => fs.rmSync(wsCopy, { recursive: true, force: true }));
  const opened = workspaceFile ? path.join(wsCopy, path.basename(opt.workspace)) : wsCopy;

  let server, browser;
  const timeoutMs = Number(opt['timeout-ms']);
  const timer = setTimeout(() => finish('timeout'), timeoutMs);
  try {
    info(`starting code-server (workspace copy ${opened})`);
    server = await startCodeServer({
      workspace: opened,
      extensionDevelopmentPath: opt.extension,
      extensionTestsPath: opt.tests,
      onOutput: (l) => (verbose ? console.log(`[code-server] ${l}`) : onLine(l, false)),
    });
    server.exited.then(() => finish('code-server exited unexpectedly'));
    info(`code-server ready on port ${server.port} after ${elapsed()}; launching chromium`);
    browser = await launchBrowser();
    const page = await openWorkbench(browser, server.url, { onLog: onAutomationLog, onExit: (code) => finish(code) });
    page.on('console', (m) => onLine(m.text(), false));
    page.on('crash', () => finish('page crashed'));
    info(`workbench ready after ${elapsed()}; running tests`);
    const code = await exited;
    if (typeof code !== 'number') {
      console.error(`[${label}] ERROR: ${code === 'timeout' ? `no result after ${timeoutMs / 1000} s` : code}`);
      return 1;
    }
    info(`tests finished after ${elapsed()} with exit code ${code}`);
    await new Promise((r) => setTimeout(r, 200)); // let late log lines arrive
    if (!result) {
      console.error(`[${label}] ERROR: the tests never logged the @@RESULT sentinel`);
      return code || 1;
    }
    return code || (result.failed > 0 || result.passed === 0 ? 1 : 0);
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
  }
}

// On a signal, exit: 'exit' hooks kill code-server's process group and remove the temp dirs;
// playwright kills chromium.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
let exitCode = 1;
try {
  exitCode = await main();
} catch (e) {
  console.error(`[${label}] ERROR: ${e?.message ?? e}`);
}
console.log(`${label}: ${result?.passed ?? 0} passed, ${result?.failed ?? 0} failed, ${result?.skipped ?? 0} skipped`);
process.exit(exitCode);
