// The whole test command (`npm test`): lint, typecheck, build, then the unit, integration, end-to-end and agents suites
// (the real Claude Code and Codex clients through `ctxctl gateway`, installed by scripts/test-host/install-agents.sh).
// Prints one closing line per suite, `<suite>: N passed, M failed, K skipped, T todo`, and fails if any suite failed
// or ran no test. A focused test (`.only`) anywhere under test/ fails the command before anything runs.
// `node scripts/test.mjs unit` (or integration, e2e, agents) runs only the named suites, after the same checks.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { closingLine, findFocused, lastCounts, listTests, runNodeTests } from './test-suite.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const suites = wanted.length ? wanted : ['unit', 'integration', 'e2e', 'agents'];

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
const focused = findFocused(path.join(root, 'test'), root);
if (focused.length) {
  console.error(`focused tests are not allowed (remove .only / { only: true }):\n${focused.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
must('lint', npx('eslint'), ['src', 'test', 'scripts']);
fs.rmSync(path.join(root, 'out', 'test'), { recursive: true, force: true });
must('typecheck', npx('tsc'), ['-p', '.']);
must('typecheck webview', npx('tsc'), ['-p', 'tsconfig.webview.json']);
must('build', process.execPath, ['scripts/build.mjs']);

// The core reaches the disk only through the installed Host: the test processes install the disk host first.
const hostSetup = path.join(root, 'out', 'test', 'unit', 'host-setup.js');
const results = [];
if (suites.includes('unit')) {
  const files = listTests(path.join(root, 'out', 'test', 'unit'));
  if (files.length === 0) {
    console.error('no compiled unit test found under out/test/unit: did the typecheck step emit?');
    process.exit(1);
  }
  process.stdout.write('\n=== unit: node --test (' + files.length + ' files)\n');
  results.push({ suite: 'unit', ...runNodeTests(files, path.join(root, 'out', 'unit.tap'), { require: [hostSetup] }) });
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
  // The same tests' multi-root part: a .code-workspace of two folders (index.ts runs only multi-root*.test.js there).
  const m = step('integration (multi-root)', process.execPath, [
    'scripts/test-host/run-extension-tests.mjs', '--extension', root, '--tests', path.join(root, 'out', 'test', 'integration', 'index.js'),
    '--workspace', path.join(root, 'test', 'fixtures', 'multi-root', 'shop.code-workspace'), '--label', 'integration-multi-root',
  ], { capture: true });
  const multi = lastCounts(m.stdout ?? '', 'integration-multi-root') ?? { passed: 0, failed: 1 };
  if (m.status !== 0 && multi.failed === 0) multi.failed = 1;
  results.push({ suite: 'integration', passed: counts.passed + multi.passed, failed: counts.failed + multi.failed, skipped: counts.skipped + multi.skipped, todo: counts.todo + multi.todo });
}
if (suites.includes('e2e')) {
  const r = step('e2e', process.execPath, ['test/e2e/run.mjs'], { capture: true });
  const counts = lastCounts(r.stdout ?? '', 'e2e') ?? { passed: 0, failed: 1 };
  if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
  results.push({ suite: 'e2e', ...counts });
}

if (suites.includes('agents')) {
  must('agent clients', 'bash', ['scripts/test-host/install-agents.sh']);
  const files = listTests(path.join(root, 'out', 'test', 'agents'));
  if (files.length === 0) {
    console.error('no compiled agents test found under out/test/agents: did the typecheck step emit?');
    process.exit(1);
  }
  process.stdout.write('\n=== agents: node --test (' + files.length + ' files)\n');
  results.push({ suite: 'agents', ...runNodeTests(files, path.join(root, 'out', 'agents.tap'), { require: [hostSetup] }) });
}

console.log('');
let ok = true;
for (const r of results) {
  console.log(closingLine(r.suite, r));
  if (r.failed > 0 || r.passed === 0) ok = false;
}
const sum = (k) => results.reduce((n, r) => n + (r[k] ?? 0), 0);
console.log(closingLine('total', { passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), todo: sum('todo') }));
process.exit(ok ? 0 : 1);
