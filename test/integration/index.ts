// Entry point for extension-host tests (the @vscode/test-electron `extensionTestsPath` contract):
// VS Code loads this compiled module inside the extension host and awaits run().
// Runs mocha (TDD UI: suite/test) over the compiled *.test.js files next to this file, logs each
// result, and logs a sentinel line that scripts/test-host/run-extension-tests.mjs parses:
//   @@RESULT {"passed":N,"failed":M,"skipped":K}
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { installDiskHost } from '../../src/host/disk';

// The tests call src/core from out/ (not the extension's bundle): that copy of the core needs its own Host.
installDiskHost();

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 20_000, reporter: 'base', forbidOnly: true, forbidPending: false });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    // The multi-root run opens a .code-workspace of two folders (test/fixtures/multi-root): only multi-root tests
    // run there, and only the others in the single-folder run.
    .filter((f) => f.startsWith('multi-root') === isMultiRoot())
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => {
      mocha
        .run()
        .on('pass', (t) => {
          passed++;
          console.log(`  ✔ ${t.fullTitle()}`);
        })
        .on('fail', (t, err: Error) => {
          failed++;
          console.log(`  ✘ ${t.fullTitle()}\n${err?.stack ?? err}`);
        })
        .on('pending', (t) => {
          skipped++;
          console.log(`  - ${t.fullTitle()} (skipped)`);
        })
        .on('end', () => resolve());
    });
  } catch (err) {
    failed++;
    console.log(`  ✘ could not load the tests: ${(err as Error)?.stack ?? err}`);
  }
  console.log(`@@RESULT ${JSON.stringify({ passed, failed, skipped, files: files.length })}`);
  if (failed > 0) throw new Error(`${failed} test(s) failed`);
  if (passed === 0) throw new Error(`no test passed (${files.length} *.test.js files in ${__dirname})`);
}

function isMultiRoot(): boolean {
  return vscode.workspace.workspaceFile !== undefined && (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}
