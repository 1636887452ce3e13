#!/usr/bin/env node
// The same extension-host suites under @vscode/test-electron, for machines where a desktop VS Code can be
// downloaded or is installed (set VSCODE_EXECUTABLE to use an installed one). CI here uses code-server instead
// (run-extension-tests.mjs), because these machines cannot download VS Code.
// Usage: npm run build && npx tsc -p . && node scripts/test-host/run-electron.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const repo = path.resolve(import.meta.dirname, '../..');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-electron-ws-'));
fs.cpSync(path.join(repo, 'examples', 'payment-incident'), workspace, { recursive: true });
try {
  await runTests({
    version: '1.100.3',
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
    extensionDevelopmentPath: repo,
    extensionTestsPath: path.join(repo, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome'],
  });
  console.log('integration (electron): passed');
} catch (e) {
  console.error(`integration (electron): failed: ${e?.message ?? e}`);
  process.exitCode = 1;
} finally {
  fs.rmSync(workspace, { recursive: true, force: true });
}
