#!/usr/bin/env node
// Part of `npm run eval`: test reports from real runners, in three modes, through the real chain (loadSnapshot +
// assemble, what `ctxctl preview --no-git` runs): (1) a report file in the workspace (test-results/), (2) the same
// report as a `--tool-result run_tests=FILE` kept inline, (3) offloaded (per_result_tokens forced to 1, so what
// reaches the model is the notice with its evidence digest). For every failure of the report (read here with a
// simple reader per format, independent of src/core/trim, or from the runner's own listing) it checks that the
// failure's name and the first line of its message reach the request text. Prints per format and mode the failures
// that arrive with name and message / total, and for the offload digest the failures named at all (a digest that
// cannot hold every message still counts every failure and names as many as fit). Four runs of 107 failures are
// summed apart: no default budget holds 107 messages.
//
// Sources: test/fixtures/test-reports/runners/ (outputs of mocha, jest, node --test, pytest and cargo test run here;
// their test sources are in runners/source/), test/fixtures/test-reports/real-dorny-test-reporter/ (fixtures of
// dorny/test-reporter, MIT, see its LICENSE), and the larger fixtures of that repository read from a fetched bare
// copy under --mirrors DIR (default /work/.mirror) when there is one (skipped and counted otherwise).
// Runs on the TypeScript output in out/ (tsc -p .). `--verbose` lists every failure that does not arrive.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { assemble } = require(path.join(root, 'out/src/core/chain/assemble.js'));
const { loadSnapshot } = require(path.join(root, 'out/src/core/sources/snapshot.js'));
const { diskReader } = require(path.join(root, 'out/src/core/sources/reader.js'));
const { defaultPolicy } = require(path.join(root, 'out/src/core/policy.js'));
// The core reaches the disk only through the installed Host.
require(path.join(root, 'out/src/host/disk.js')).installDiskHost();

const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose');
const mirrors = argv.includes('--mirrors') ? argv[argv.indexOf('--mirrors') + 1] : '/work/.mirror';
const FIX = path.join(root, 'test/fixtures/test-reports');
const DORNY_GIT = path.join(mirrors, 'dorny+test-reporter', 'repo');

// ---- independent readers: each returns [{ name, message }] -------------------------------------------------------

const decode = (s) =>
  s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const attr = (tag, name) => {
  const m = new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decode(m[1] ?? m[2]) : undefined;
};
const firstLine = (s) => (s ?? '').split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
const noComments = (x) => x.replace(/<!--[\s\S]*?-->/g, '');

function junitTruth(x) {
  const out = [];
  for (const m of noComments(x).matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const f = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(m[2] ?? '');
    if (!f) continue;
    out.push({ name: attr(m[1], 'name'), message: attr(f[2], 'message') || firstLine(decode(f[3] ?? '')) });
  }
  return out;
}
function nunitTruth(x) {
  const out = [];
  for (const m of noComments(x).matchAll(/<test-case\b([^>]*?)(?:\/>|>([\s\S]*?)<\/test-case>)/g)) {
    const result = attr(m[1], 'result');
    if (!/^(?:Failed|Failure|Error)$/.test(result ?? '')) continue;
    const msg = /<message>([\s\S]*?)<\/message>/.exec(m[2] ?? '');
    out.push({ name: attr(m[1], 'name'), message: firstLine(decode(msg?.[1] ?? '')) });
  }
  return out;
}
function trxTruth(x) {
  const out = [];
  for (const m of x.matchAll(/<UnitTestResult\b([^>]*?)(?:\/>|>([\s\S]*?)<\/UnitTestResult>)/g)) {
    if (attr(m[1], 'outcome') !== 'Failed') continue;
    const msg = /<Message>([\s\S]*?)<\/Message>/.exec(m[2] ?? '');
    out.push({ name: attr(m[1], 'testName'), message: firstLine(decode(msg?.[1] ?? '')) });
  }
  return out;
}
function mochaJsonTruth(x) {
  return JSON.parse(x).failures.map((f) => ({ name: f.title, message: firstLine(f.err?.message) }));
}
function jestJsonTruth(x) {
  return JSON.parse(x).testResults.flatMap((r) => r.assertionResults.filter((a) => a.status === 'failed').map((a) => ({ name: a.title, message: firstLine(a.failureMessages?.[0]) })));
}
function rspecTruth(x) {
  return JSON.parse(x).examples.filter((e) => e.status === 'failed').map((e) => ({ name: e.full_description, message: firstLine(e.exception?.message) }));
}
function goTruth(x) {
  const events = x.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l));
  const output = new Map();
  for (const e of events) if (e.Action === 'output' && e.Test) output.set(`${e.Package}/${e.Test}`, [...(output.get(`${e.Package}/${e.Test}`) ?? []), e.Output]);
  return events
    .filter((e) => e.Action === 'fail' && e.Test)
    .map((e) => {
      const said = (output.get(`${e.Package}/${e.Test}`) ?? []).map((l) => l.trim()).filter((l) => l && !/^(?:=== RUN|--- FAIL|=== PAUSE|=== CONT)/.test(l));
      return { name: e.Test, message: (said[0] ?? '').replace(/^\S+_test\.go:\d+: /, '') };
    });
}
function dartTruth(x) {
  const events = x.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l));
  const names = new Map();
  const errors = new Map();
  const out = [];
  for (const e of events) {
    if (e.type === 'testStart') names.set(e.test.id, e.test.name);
    if (e.type === 'error' && !errors.has(e.testID)) errors.set(e.testID, e.error);
    if (e.type === 'testDone' && e.result !== 'success' && !e.skipped) out.push({ name: names.get(e.testID), message: firstLine(errors.get(e.testID)) });
  }
  return out;
}
/** cargo test: `---- NAME stdout ----` then the panic, whose message is the line after `panicked at FILE:`. */
function cargoTruth(x) {
  const out = [];
  for (const m of x.matchAll(/^---- (\S+) stdout ----\n([\s\S]*?)(?=^---- |^failures:\n)/gm)) {
    const lines = m[2].split('\n').map((l) => l.trim()).filter(Boolean);
    const at = lines.findIndex((l) => /panicked at /.test(l));
    out.push({ name: m[1].replace(/^tests::/, ''), message: lines[at + 1] ?? '' });
  }
  return out;
}

// ---- the reports ----------------------------------------------------------------------------------------------------

const runner = (f) => ({ read: () => fs.readFileSync(path.join(FIX, 'runners', f), 'utf8'), where: `runners/${f}` });
const dornyLocal = (local) => ({ read: () => fs.readFileSync(path.join(FIX, 'real-dorny-test-reporter', local), 'utf8'), where: `real-dorny-test-reporter/${local}` });
const dornyMirror = (f) => ({
  read: () => (fs.existsSync(DORNY_GIT) ? execFileSync('git', ['--git-dir', DORNY_GIT, 'show', `HEAD:__tests__/fixtures/${f}`], { maxBuffer: 64 << 20 }).toString('utf8') : undefined),
  where: `dorny/test-reporter __tests__/fixtures/${f} (fetched copy)`,
});
const committed = (f, local = path.basename(f)) => (fs.existsSync(path.join(FIX, 'real-dorny-test-reporter', local)) ? dornyLocal(local) : dornyMirror(f));

const REPORTS = [
  // outputs of real runners run here (the truth from the same run's structured report, or the runner's own listing)
  { format: 'mocha spec', file: 'mocha-spec.txt', src: runner('mocha-spec.txt'), truth: () => mochaJsonTruth(runner('mocha.json').read()) },
  { format: 'mocha JSON', file: 'mocha.json', src: runner('mocha.json'), truth: mochaJsonTruth },
  { format: 'jest text', file: 'jest-text.txt', src: runner('jest-text.txt'), truth: () => jestJsonTruth(runner('jest.json').read()) },
  { format: 'jest JSON', file: 'jest.json', src: runner('jest.json'), truth: jestJsonTruth },
  { format: 'node --test spec', file: 'node-spec.txt', src: runner('node-spec.txt'), truth: () => junitTruth(runner('node-junit.xml').read()) },
  { format: 'node --test TAP', file: 'node-tap.tap', src: runner('node-tap.tap'), truth: () => junitTruth(runner('node-junit.xml').read()) },
  { format: 'node --test JUnit', file: 'node-junit.xml', src: runner('node-junit.xml'), truth: junitTruth },
  { format: 'pytest text', file: 'pytest-text.txt', src: runner('pytest-text.txt'), truth: () => junitTruth(runner('pytest-junit.xml').read()) },
  { format: 'pytest JUnit', file: 'pytest-junit.xml', src: runner('pytest-junit.xml'), truth: junitTruth },
  { format: 'cargo test', file: 'cargo-test.txt', src: runner('cargo-test.txt'), truth: cargoTruth },
  // 300 tests, 107 failing: more failures than a 600-token offload digest holds with their messages
  { heavy: true, format: 'mocha spec, 107 failing', file: 'many-mocha-spec.txt', src: runner('many-mocha-spec.txt'), truth: () => jestJsonTruth(runner('many-jest.json').read()) },
  { heavy: true, format: 'jest text, 107 failing', file: 'many-jest-text.txt', src: runner('many-jest-text.txt'), truth: () => jestJsonTruth(runner('many-jest.json').read()) },
  { heavy: true, format: 'jest JSON, 107 failing', file: 'many-jest.json', src: runner('many-jest.json'), truth: jestJsonTruth },
  { heavy: true, format: 'node --test JUnit, 107 failing', file: 'many-node-junit.xml', src: runner('many-node-junit.xml'), truth: junitTruth },
  // fixtures of dorny/test-reporter (real reports of many runners)
  { format: 'JUnit (java)', file: 'junit4-complete.xml', src: committed('external/java/junit4-complete.xml'), truth: junitTruth },
  { format: 'JUnit (TestNG)', file: 'TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml', src: committed('external/java/TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml'), truth: junitTruth },
  { format: 'JUnit (pulsar, 808 tests)', file: 'pulsar-test-report.xml', src: dornyMirror('external/java/pulsar-test-report.xml'), truth: junitTruth },
  { format: 'JUnit (jest-junit)', file: 'jest-junit.xml', src: committed('jest-junit.xml'), truth: junitTruth },
  { format: 'JUnit (jest-junit, 4239 tests)', file: 'jest-test-results.xml', src: dornyMirror('external/jest/jest-test-results.xml'), truth: junitTruth },
  { format: 'JUnit (jest, suite errors)', file: 'jest-suite-errors.xml', src: committed('test-errors/jest/jest-test-results.xml', 'jest-suite-errors.xml'), truth: junitTruth },
  { format: 'JUnit (gtest-style message)', file: 'junit-with-message.xml', src: committed('junit-with-message.xml'), truth: junitTruth },
  { format: 'JUnit (PHPUnit)', file: 'phpunit.xml', src: committed('phpunit/phpunit.xml'), truth: junitTruth },
  { format: 'JUnit (PHPUnit paths)', file: 'phpunit-paths.xml', src: committed('phpunit/phpunit-paths.xml'), truth: junitTruth },
  { format: 'JUnit (phpcheckstyle)', file: 'phpcheckstyle-phpunit.xml', src: committed('external/phpunit/phpcheckstyle-phpunit.xml'), truth: junitTruth },
  { format: 'JUnit (Nette Tester)', file: 'tester-v1.7-report.xml', src: committed('nette-tester/tester-v1.7-report.xml'), truth: junitTruth },
  { format: 'JUnit (pytest)', file: 'python-xunit-pytest.xml', src: committed('python-xunit-pytest.xml'), truth: junitTruth },
  { format: 'JUnit (python unittest)', file: 'python-xunit-unittest.xml', src: committed('python-xunit-unittest.xml'), truth: junitTruth },
  { format: 'JUnit (swift)', file: 'swift-xunit.xml', src: committed('swift-xunit.xml'), truth: junitTruth },
  { format: 'JUnit (ROS launch_testing)', file: 'empty_failures.xml', src: committed('external/java/empty_failures.xml'), truth: junitTruth },
  { format: 'NUnit 3', file: 'dotnet-nunit.xml', src: committed('dotnet-nunit.xml'), truth: nunitTruth },
  { format: 'NUnit 3 (mock-assembly)', file: 'nunit-sample.xml', src: committed('external/nunit-sample.xml'), truth: nunitTruth },
  { format: 'TRX (MSTest/xUnit)', file: 'dotnet-trx.trx', src: committed('dotnet-trx.trx'), truth: trxTruth },
  { format: 'TRX (xUnit v3)', file: 'dotnet-xunitv3.trx', src: committed('dotnet-xunitv3.trx'), truth: trxTruth },
  { format: 'TRX (SilentNotes)', file: 'SilentNotes.trx', src: dornyMirror('external/SilentNotes.trx'), truth: trxTruth },
  { format: 'mocha JSON (dorny)', file: 'mocha-json.json', src: committed('mocha-json.json'), truth: mochaJsonTruth },
  { format: 'mocha JSON (839 tests)', file: 'mocha-test-results.json', src: dornyMirror('external/mocha/mocha-test-results.json'), truth: mochaJsonTruth },
  { format: 'go test -json', file: 'golang-json.json', src: committed('golang-json.json'), truth: goTruth },
  { format: 'dart JSON', file: 'dart-json.json', src: committed('dart-json.json'), truth: dartTruth },
  { format: 'flutter JSON (provider)', file: 'provider-test-results.json', src: dornyMirror('external/flutter/provider-test-results.json'), truth: dartTruth },
  { format: 'RSpec JSON', file: 'rspec-json.json', src: committed('rspec-json.json'), truth: rspecTruth },
];

// ---- the three modes --------------------------------------------------------------------------------------------

const TASK = 'Fix the failing tests: read the test report and explain each failure.';

function requestText(result) {
  const strings = [];
  const walk = (v) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(JSON.parse(result.serialized));
  return norm(strings.join('\n').replace(/&lt;/g, '<'));
}
const norm = (s) => s.replace(/\s+/g, ' ');

function run(report, text, mode) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-eval-reports-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-eval-result-'));
  try {
    fs.writeFileSync(path.join(ws, 'README.md'), '# widgets\n\nA small library.\n');
    const policy = defaultPolicy();
    let toolResults = [];
    if (mode === 'file') {
      fs.mkdirSync(path.join(ws, 'test-results'));
      fs.writeFileSync(path.join(ws, 'test-results', report.file), text);
    } else {
      const abs = path.join(outside, report.file);
      fs.writeFileSync(abs, text);
      toolResults = [{ name: 'run_tests', file: abs }];
      if (mode === 'offload') policy.offload = { ...policy.offload, per_result_tokens: 1, aggregate_tokens: 1 };
    }
    const snapshot = loadSnapshot({ root: ws, reader: diskReader(ws), task: TASK, policy, changes: false, toolResults });
    const result = assemble(snapshot, {});
    const offloaded = result.manifest.offloaded.length > 0;
    if (mode === 'offload' && !offloaded) throw new Error(`${report.file}: not offloaded`);
    return requestText(result);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
}

/** A failure arrives when its name and the first line of its message (its first 60 characters) are in the request. */
function arrives(sent, f) {
  const name = norm(f.name ?? '').trim();
  const message = norm(f.message ?? '').trim().slice(0, 60).trim();
  return (name === '' || sent.includes(name)) && (message === '' || sent.includes(message));
}

/**
 * The message as this report states it. A text report's truth comes from the same run's structured report, whose
 * message may carry the error's class (`Error: …`) or lines the reporter joined: the class goes when the report does
 * not print it, and the message is cut to its longest start the report prints (at least 20 characters).
 */
function asStated(message, raw) {
  let m = norm(message ?? '').trim();
  if (m === '' || raw.includes(m.slice(0, 60))) return m;
  const bare = m.replace(/^[\w.$]+(?: \[\w+\])?: /, '');
  if (raw.includes(bare.slice(0, 60))) return bare;
  for (let n = Math.min(60, bare.length); n >= 20; n--) if (raw.includes(bare.slice(0, n))) return bare.slice(0, n);
  return m;
}

const MODES = ['file', 'tool', 'offload'];
const rows = [['format', 'report', 'failures', ...MODES.map((m) => `${m}: name + message`), 'offload: named']];
// The runs with 107 failures are summed apart: no budget of the defaults holds 107 messages, what they show is that
// every failure is counted and as many as fit are named.
const sums = { regular: { totals: Object.fromEntries(MODES.map((m) => [m, 0])), named: 0, counted: 0, failures: 0, reports: 0 }, heavy: { totals: Object.fromEntries(MODES.map((m) => [m, 0])), named: 0, counted: 0, failures: 0, reports: 0 } };
let skipped = 0;
const misses = [];
for (const report of REPORTS) {
  const text = report.src.read();
  if (text === undefined) {
    skipped++;
    console.log(`${report.format}: ${report.src.where} not available (no fetched copy): skipped`);
    continue;
  }
  const truth = report.truth(text).map((f) => ({ ...f, message: asStated(f.message, norm(text)) }));
  const sum = report.heavy ? sums.heavy : sums.regular;
  sum.failures += truth.length;
  sum.reports++;
  const cells = [];
  for (const mode of MODES) {
    const sent = run(report, text, mode);
    const ok = truth.filter((f) => arrives(sent, f));
    sum.totals[mode] += ok.length;
    cells.push(`${ok.length} / ${truth.length}`);
    for (const f of truth) if (!ok.includes(f)) misses.push(`${report.format} [${mode}]: ${f.name} — ${f.message}`);
    if (mode === 'offload') {
      // The digest names every failure even when their messages do not all fit (a count and the list of names).
      const named = truth.filter((f) => sent.includes(norm(f.name ?? '').trim())).length;
      const counted = new RegExp(`failures \\(${truth.length}\\b|\\b${truth.length} (?:failed|failures)\\b`).test(sent);
      sum.named += named;
      if (counted) sum.counted++;
      cells.push(`${named} / ${truth.length}${counted ? '' : ' (count missing)'}`);
    }
  }
  rows.push([report.format, report.src.where.replace(/^.*\//, ''), String(truth.length), ...cells]);
}
const pct = (a, b) => (b === 0 ? '—' : `${Math.round((1000 * a) / b) / 10} %`);
for (const [label, sum] of [['all', sums.regular], ['all, 107-failing runs', sums.heavy]]) {
  rows.push([label, `${sum.reports} reports`, String(sum.failures), ...MODES.map((m) => `${sum.totals[m]} / ${sum.failures} (${pct(sum.totals[m], sum.failures)})`), `${sum.named} / ${sum.failures} (${pct(sum.named, sum.failures)})`]);
}
console.log('');
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
for (const row of rows) console.log(`| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
if (misses.length > 0) console.log(`\nnot arriving (${misses.length}):\n  ${misses.slice(0, verbose ? undefined : 20).join('\n  ')}${!verbose && misses.length > 20 ? `\n  … and ${misses.length - 20} more (--verbose)` : ''}`);
const { totals, failures } = sums.regular;
const all = MODES.reduce((n, m) => n + totals[m], 0);
console.log(`\ntest reports: ${pct(all, 3 * failures)} of ${failures} failures arrive with their name and message over the three modes (${MODES.map((m) => `${m} ${pct(totals[m], failures)}`).join(', ')}); runs of 107 failures: the count in ${sums.heavy.counted} of ${sums.heavy.reports} offload digests, ${pct(sums.heavy.named, sums.heavy.failures)} of the failures named in the offload digest${skipped ? `; ${skipped} reports skipped (not available)` : ''}`);
