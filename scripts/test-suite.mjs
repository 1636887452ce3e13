// The parts of the test command that decide what a suite's result is: running node:test files, reading their TAP
// counts, the closing line, and the refusal of focused tests. scripts/test.mjs and scripts/fuzz.mjs use them;
// test/unit/scripts/test-suite.test.ts checks them on fixture files.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Run node:test files, the spec reporter on stdout and TAP into `tapFile`, and count from the TAP summary.
 * A run that exits non-zero without a counted failure (a crash, a file that does not load) counts one failure.
 * `require`: modules loaded before each file (the unit suite's host setup).
 */
export function runNodeTests(files, tapFile, { env = {}, quiet = false, require = [] } = {}) {
  const childEnv = { ...process.env, ...env };
  // Inside a node:test run, NODE_TEST_CONTEXT would make this nested run report to its parent instead of here.
  delete childEnv.NODE_TEST_CONTEXT;
  fs.mkdirSync(path.dirname(tapFile), { recursive: true });
  fs.rmSync(tapFile, { force: true });
  const r = spawnSync(process.execPath, [...require.flatMap((r) => ['--require', r]), '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files], {
    stdio: quiet ? 'ignore' : 'inherit',
    env: childEnv,
  });
  const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
  return countsFromTap(tap, r.status);
}

/** passed, failed, skipped and todo from a TAP summary (`# pass N` …); a non-zero exit with no failure counted is one. */
export function countsFromTap(tap, status) {
  const n = (label) => Number(new RegExp(`^# ${label} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
  const failed = n('fail') + (status !== 0 && n('fail') === 0 ? 1 : 0);
  return { passed: n('pass'), failed, skipped: n('skipped'), todo: n('todo') };
}

/** `unit: 12 passed, 0 failed, 1 skipped, 2 todo`: one closing line per suite. */
export function closingLine(suite, { passed, failed, skipped = 0, todo = 0 }) {
  return `${suite}: ${passed} passed, ${failed} failed, ${skipped} skipped, ${todo} todo`;
}

/** The counts of the last closing line labelled `label` in a suite's output (integration and e2e print their own). */
export function lastCounts(text, label) {
  const re = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?(?:, (\\d+) todo)?`, 'gm');
  const m = [...text.matchAll(re)].at(-1);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0), todo: Number(m[4] ?? 0) } : undefined;
}

/** Compiled test files (`*.test.js`) below `dir`, sorted; `match` narrows them by file name. */
export function listTests(dir, match = () => true) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.js') && match(entry.name)) out.push(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return out.sort();
}

/**
 * Source files under `dir` that focus a test: `it.only(`, `describe.only(`, `test.only(`, `suite.only(` or
 * `{ only: true }`, as `file:line: text` relative to `shownFrom`. Fixture folders below `dir` are not scanned.
 */
export function findFocused(dir, shownFrom = dir) {
  const hits = [];
  const re = /\b(?:it|test|describe|suite)\.only\s*\(|\bonly:\s*true\b/;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(?:ts|mjs|js)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (path.relative(dir, file).split(path.sep).includes('fixtures')) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (re.test(line)) hits.push(`${path.relative(shownFrom, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}
