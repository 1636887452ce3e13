// The whole test command (`npm test`): lint, typecheck, build, then the unit, integration and end-to-end suites.
// Prints one closing line per suite, `<suite>: N passed, M failed`, and fails if any suite failed or ran no test.
// `node scripts/test.mjs unit` (or integration, e2e) runs only the named suites, after the same checks.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const suites = wanted.length ? wanted : ['unit', 'integration', 'e2e'];

function step(label, cmd, args, opts = {}) {
  process.stdout.write(`\n=== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', env: { ...process.env, ...opts.env } });
  if (opts.capture) process.stdout.write(r.stdout ?? '');
  return r;
}

function must(label, cmd, args) {
  const r = step(label, cmd, args);
  if (r.status !== 0) {
    console.error(`\n${label} failed (exit ${r.status}).`);
    process.exit(1);
  }
}

const npx = (bin) => path.join(root, 'node_modules', '.bin', bin);
// A focused test (`.only`) would silently run a fraction of a suite: refuse it before anything runs.
const focused = findFocused(path.join(root, 'test'));
if (focused.length) {
  console.error(`focused tests are not allowed (remove .only / { only: true }):\n${focused.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
must('lint', npx('eslint'), ['src', 'test', 'scripts']);
fs.rmSync(path.join(root, 'out', 'test'), { recursive: true, force: true });
must('typecheck', npx('tsc'), ['-p', '.']);
must('typecheck webview', npx('tsc'), ['-p', 'tsconfig.webview.json']);
must('build', process.execPath, ['scripts/build.mjs']);

const results = [];
function lastCounts(text, label) {
  const re = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed(?:, (\\d+) skipped)?`, 'gm');
  const m = [...text.matchAll(re)].at(-1);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) } : undefined;
}

if (suites.includes('unit')) {
  const tap = path.join(root, 'out', 'unit.tap');
  const files = listTests(path.join(root, 'out', 'test', 'unit'));
  if (files.length === 0) {
    console.error('no compiled unit test found under out/test/unit: did the typecheck step emit?');
    process.exit(1);
  }
  const r = step('unit', process.execPath, [
    '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`,
    ...files,
  ]);
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const passed = Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  const failed = Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0) + (r.status !== 0 && !/^# fail [1-9]/m.test(text) ? 1 : 0);
  const skipped = Number(/^# skipped (\d+)/m.exec(text)?.[1] ?? 0) + Number(/^# todo (\d+)/m.exec(text)?.[1] ?? 0);
  results.push({ suite: 'unit', passed, failed, skipped });
}
// The extension-host and browser suites need the offline VS Code test host: install it when missing (idempotent,
// under a second when it is there), so `npm test` alone works on a fresh machine.
if (suites.includes('integration') || suites.includes('e2e')) must('test host', 'bash', ['scripts/test-host/install.sh']);

if (suites.includes('integration')) {
  const r = step('integration', process.execPath, [
    'scripts/test-host/run-extension-tests.mjs', '--extension', root, '--tests', path.join(root, 'out', 'test', 'integration', 'index.js'),
    '--workspace', path.join(root, 'examples', 'payment-incident'), '--label', 'integration',
  ], { capture: true });
  const counts = lastCounts(r.stdout ?? '', 'integration') ?? { passed: 0, failed: 1 };
  if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ suite: 'integration', ...counts });
}
if (suites.includes('e2e')) {
  const r = step('e2e', process.execPath, ['test/e2e/run.mjs'], { capture: true });
  const counts = lastCounts(r.stdout ?? '', 'e2e') ?? { passed: 0, failed: 1 };
  if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ suite: 'e2e', ...counts });
}

console.log('');
let ok = true;
for (const { suite, passed, failed, skipped = 0 } of results) {
  console.log(`${suite}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0 || passed === 0) ok = false;
}
const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + (r.skipped ?? 0) }), { passed: 0, failed: 0, skipped: 0 });
console.log(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(ok ? 0 : 1);

function listTests(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return out.sort();
}

/** Source files under `dir` that focus a test: `it.only(`, `describe.only(`, `test.only(`, `suite.only(` or `{ only: true }`. */
function findFocused(dir) {
  const hits = [];
  const re = /\b(?:it|test|describe|suite)\.only\s*\(|\bonly:\s*true\b/;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(?:ts|mjs|js)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (file.includes(`${path.sep}fixtures${path.sep}`)) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (re.test(line)) hits.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}
