#!/usr/bin/env node
// Benchmark (`npm run bench`, which builds first): every performance figure (docs/performance.md), each side by side with its
// reference measured in the same run (ripgrep, node loading js-tiktoken), as a ratio. Every figure comes from a
// fresh child process (bench/measure.mjs). Generated data lives in /tmp/ctxctl-bench and is reused between runs.
//
//   node scripts/bench.mjs [--json] [--quick] [--gib] [--data DIR]
//     --quick  a smaller run (a 50 MiB log, a 10k-file tree, 5 re-assemblies)
//     --gib    add the 1 GiB log
//     --only   a comma-separated list of sections: logs, shapes, example, reassembly, extension, scan, workspaces,
//              packages, tokenizers, gateway (default: all)
//   CTXCTL_BENCH_LOG_MIB=N   the size of the log-shape rows (default 512, 50 with --quick)
//   CTXCTL_LOGHUB=DIR        a clone of github.com/logpai/loghub for the mixed real-logs row (skipped without)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { fileTree, largeWorkspace, logWorkspace, notesWorkspace, sizedWorkspace } from './bench/gen.mjs';
import { measureShapes } from './bench/log-shapes.mjs';
import { cliBody, fit, median, medianRun, node, program, walkBody, which } from './bench/measure.mjs';
import { compareTokenizers } from './bench/tokenizers.mjs';
import { packageSizes } from './bench/packages.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const json = flag('--json');
const quick = flag('--quick');
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
const want = (section) => !only || only.has(section);
const data = args.includes('--data') ? path.resolve(args[args.indexOf('--data') + 1]) : path.join(os.tmpdir(), 'ctxctl-bench');
const cli = path.join(root, 'dist', 'cli.js');
const log = (s) => (json ? process.stderr : process.stdout).write(s + '\n');
if (!fs.existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run bench` (it builds first) or `node scripts/build.mjs`.');
  process.exit(2);
}
const rg = which('rg');
if (!rg) log('ripgrep (rg) is not installed: the rg references are skipped (apt-get install -y ripgrep).');
fs.mkdirSync(data, { recursive: true });

// The core, bundled from src: the same code dist/cli.js and the workers carry.
const core = path.join(data, `core-${process.pid}.cjs`);
await esbuild.build({
  stdin: {
    contents: "import { installDiskHost } from './src/host/disk'; installDiskHost(); export { counterFor } from './src/core/tokens'; export { assemble } from './src/core/chain/assemble'; export { loadSnapshot } from './src/core/sources/snapshot'; export { RelevanceIndex } from './src/core/relevance/index'; export { scanWorkspace } from './src/core/sources/scan';",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: core, logLevel: 'warning',
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
});

// The bundle counts with the build's rank files beside it (src/core/rank-file.ts), as dist/cli.js does.
const ranksDir = path.join(data, 'ranks');
fs.rmSync(ranksDir, { recursive: true, force: true });
fs.symlinkSync(path.join(root, 'dist', 'ranks'), ranksDir);

const rows = [];
const loadAtStart = os.loadavg();
const startedAt = new Date();
const row = (figure, ours, reference, extra = {}) => {
  const ratio = reference && ours !== undefined && reference.value > 0 ? ours.value / reference.value : undefined;
  rows.push({ figure, ours, reference, ...(ratio !== undefined ? { ratio: Number(ratio.toFixed(2)) } : {}), ...extra });
  log(`  ${figure}: ${fmt(ours)}${reference ? ` vs ${reference.what} ${fmt(reference)}` : ''}${ratio !== undefined ? ` = ${ratio.toFixed(2)}×` : ''}`);
};
const fmt = (x) => (x === undefined ? '—' : `${x.value}${x.unit === '%' ? '' : ' '}${x.unit}`);
const ms = (v) => ({ value: Math.round(v), unit: 'ms' });

// ---- 1. big logs: preview CPU time vs `rg -c ERROR`, peak RSS ----------------------------------------------------
for (const mib of !want('logs') ? [] : quick ? [50] : [200, 512, ...(flag('--gib') ? [1024] : [])]) {
  log(`log preview, ${mib} MiB …`);
  const ws = logWorkspace(data, mib);
  const file = path.join(ws, 'logs', 'app.log');
  let ref;
  if (rg) {
    program(rg, ['-c', 'ERROR', file]); // the page cache is warm for both
    // CPU time to the millisecond (bash's `time`), the median of three runs.
    ref = { what: '`rg -c ERROR` CPU', value: Math.round(medianRun(rg, ['-c', 'ERROR', file]).cpuMs), unit: 'ms' };
  }
  const ours = node('preview', cliBody(cli, ['preview', '--workspace', ws, '--task', path.join(ws, 'task.md')], 'app.log|FINAL'));
  row(`${mib} MiB log preview, CPU time`, ms(ours.cpuMs), ref, { target: '≤ 10× (stretch 3×)', result: ours.out });
  row(`${mib} MiB log preview, peak RSS`, { value: Math.round(ours.rssMB), unit: 'MB' }, undefined, { target: '≤ 250 MB' });
}

// ---- 1b. every log shape: preview CPU time vs `rg -c` on the same file, peak RSS -----------------------------------
if (want('shapes')) {
  const mib = Number(process.env.CTXCTL_BENCH_LOG_MIB ?? (quick ? 50 : 512));
  for (const r of measureShapes({ cli, data, mib, log })) {
    row(`${mib} MiB ${r.shape} log preview, CPU time`, ms(r.cpuMs), r.ref, { target: '≤ 10×', result: r.result });
    row(`${mib} MiB ${r.shape} log preview, peak RSS`, { value: r.rssMB, unit: 'MB' }, undefined, { target: '≤ 250 MB' });
  }
}

// ---- 2. cold preview of the example vs node loading js-tiktoken and encoding one string -------------------------
if (want('example')) {
log('cold example preview …');
const example = path.join(root, 'examples', 'payment-incident');
const tokenizerLoad = `const { Tiktoken } = require('js-tiktoken/lite'); const r = require('js-tiktoken/ranks/o200k_base'); globalThis.__out = new Tiktoken(r.default ?? r).encode('Why are legacy POS payments rejected?').length;`;
const cold = [];
const refCold = [];
for (let i = 0; i < 3; i++) {
  refCold.push(node('tokenizer load', tokenizerLoad, { wall: true }).ms);
  cold.push(node('example preview', cliBody(cli, ['preview', '--workspace', example, '--task', path.join(example, 'ticket.md')]), { wall: true }).ms);
}
row('cold example preview (median of 3, wall)', ms(median(cold)), { what: 'node + js-tiktoken load + one encode', ...ms(median(refCold)) }, { target: '≤ 1.2×' });
}

// ---- 3. re-assembly after a one-document edit: 60 docs + a 5 MB log (about 100k tokens in the workspace, 30k
// sent), and 400 docs under a 1M window (about 530k tokens sent) -----------------------------------------------------
const reassemble = (root, doc, runs) =>
  node(
    'reassembly',
    `const c = require(${JSON.stringify(core)}); const fs = require('fs'); const path = require('path');
const root = ${JSON.stringify(root)}; const doc = path.join(root, 'docs', ${JSON.stringify(doc)}); const original = fs.readFileSync(doc, 'utf8');
const index = new c.RelevanceIndex(); const opts = { root, task: path.join(root, 'task.md'), changes: false };
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const run = () => { const c0 = cpu(); const t0 = performance.now(); const s = c.loadSnapshot(opts); const t1 = performance.now(); const c1 = cpu(); const a = c.assemble(s, { relevanceIndex: index }); return { total: performance.now() - t0, assemble: performance.now() - t1, cpu: cpu() - c0, assembleCpu: cpu() - c1, tokens: a.manifest.budget.final }; };
try { const first = run(); const times = []; let tokens = 0;
  for (let i = 0; i < ${runs}; i++) { fs.writeFileSync(doc, original + '\\nEdit ' + i + ': the ledger retry now backs off.\\n'); const r = run(); times.push(r); tokens = r.tokens; }
  const med = (xs) => { const s = xs.sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
  globalThis.__out = { first: first.total, total: med(times.map((t) => t.total)), early: med(times.slice(0, 5).map((t) => t.total)), steady: times.length > 5 ? med(times.slice(5).map((t) => t.total)) : undefined, assemble: med(times.map((t) => t.assemble)), cpu: med(times.map((t) => t.cpu)), assembleCpu: med(times.map((t) => t.assembleCpu)), tokens };
} finally { fs.writeFileSync(doc, original); }`,
  );
if (want('reassembly')) {
  const runs = quick ? 5 : 15;
  for (const [label, ws, doc] of [['100k', largeWorkspace(data), 'note-07.md'], ...(quick ? [] : [['500k', sizedWorkspace(data, 400, 1_000_000), 'note-007.md']])]) {
    log(`re-assembly, ${label}-token workspace …`);
    const r = reassemble(ws, doc, runs).out;
    const tokens = `${Math.round(r.tokens / 1000)}k tokens sent`;
    // Wall times under load are several times the CPU times: both are printed (medians of the same runs). The first
    // edits of a process run while V8 still optimises the chain's code: their median is printed beside the later ones'.
    row(`re-assembly after one edit at ${tokens}, median of ${runs} (snapshot + assemble)`, ms(r.total), { what: 'first run, same process', ...ms(r.first) }, { target: '≤ 30 ms', tokens: r.tokens, result: `CPU ${Math.round(r.cpu)} ms (assemble ${Math.round(r.assembleCpu)} ms); ${r.steady !== undefined ? `edits 1-5 ${Math.round(r.early)} ms, edits 6-${runs} ${Math.round(r.steady)} ms (medians); ` : ''}load ${os.loadavg()[0].toFixed(1)}` });
    row(`  of which assemble (${tokens})`, ms(r.assemble), undefined, { tokens: r.tokens });
  }
  // The editor's re-assembly of a large workspace, in one process as the assemble worker does it: every note unchanged
  // but the decision record edited. The parsed documents are kept for 131 072 files, the texts' memos for 16 384
  // (src/core/sources/document-cache.ts, src/core/relevance/by-text.ts).
  for (const n of quick ? [10000] : [10000, 100000]) {
    log(`re-assembly, ${n} notes …`);
    const edits = n === 100000 ? 5 : 9;
    const r = reassemble(notesWorkspace(data, n), 'adr/0007-payment-gateway-retry-budget.md', edits);
    row(`re-assembly after one edit, ${n} notes, median of ${edits} (snapshot + assemble)`, ms(r.out.total), { what: 'first run, same process', ...ms(r.out.first) }, { result: `CPU ${Math.round(r.out.cpu)} ms (assemble ${Math.round(r.out.assembleCpu)} ms); peak RSS ${Math.round(r.rssMB)} MB; load ${os.loadavg()[0].toFixed(1)}` });
  }
}

// ---- 4. require(dist/extension.js) and the bundles' sizes ------------------------------------------------------
// The stub answers every name of the vscode API with itself; its prototype is itself too, because the bundle's
// ESM wrapper (esbuild's __toESM) copies only own names and reads the rest through the prototype, and a class
// field read at load (`static kinds = [vscode.CodeActionKind.QuickFix]`) broke the row.
if (want('extension')) {
log('extension load and bundles …');
const ext = path.join(root, 'dist', 'extension.js');
const stub = `const M = require('module'); const load = M._load; const vscode = new Proxy(function () {}, { get: (t, k) => (k === '__esModule' ? false : vscode), apply: () => vscode, construct: () => vscode, getPrototypeOf: () => vscode }); M._load = function (req, ...rest) { return req === 'vscode' ? vscode : load.call(this, req, ...rest); };`;
const requireTimes = [];
for (let i = 0; i < 3; i++) requireTimes.push(node('require extension', `${stub} const t = performance.now(); require(${JSON.stringify(ext)}); globalThis.__out = performance.now() - t;`).out);
row('require(dist/extension.js) (median of 3)', ms(median(requireTimes)), undefined, { target: 'activation ≤ 50 ms' });
const bundles = fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js')).sort();
for (const f of bundles.map((b) => path.join('dist', b))) {
  const bytes = fs.statSync(path.join(root, f)).size;
  const size = bytes < 100 * 1024 ? { value: Number((bytes / 1024).toFixed(1)), unit: 'KB' } : { value: Number((bytes / 1048576).toFixed(2)), unit: 'MB' };
  row(`size of ${f}`, size, undefined, f === 'dist/extension.js' ? { target: '≤ 1 MB' } : {});
}
}

// ---- 4b. the packages: the VSIX and the CLI's npm tarball, built from this dist/ (bench/packages.mjs) -----------
if (want('packages')) {
log('packages …');
const bytes = (n) => ({ value: Number((n / 1048576).toFixed(2)), unit: 'MB' });
const pkgs = packageSizes(root, path.join(data, 'packages'));
row('VSIX, packed', bytes(pkgs.vsix.bytes), undefined, { target: 'only what the extension loads' });
row('VSIX, unpacked', bytes(pkgs.vsix.unpacked), undefined);
row('VSIX, files', { value: pkgs.vsix.files, unit: 'files' }, undefined);
row('VSIX, extension/dist/extension.js', { value: Number((pkgs.vsix.extensionJs / 1024).toFixed(0)), unit: 'KB' }, undefined, { target: '≤ 1 MB' });
row('npm package, packed', bytes(pkgs.npm.bytes), undefined);
row('npm package, unpacked', bytes(pkgs.npm.unpacked), undefined);
row('npm package, files', { value: pkgs.npm.files, unit: 'files' }, undefined);
}

// ---- 5. scan: µs per file vs `rg --files`, scaling series --------------------------------------------------------
const series = [];
for (const n of !want('scan') ? [] : quick ? [10000] : [10000, 50000, 200000]) {
  log(`scan, ${n} files …`);
  const dir = fileTree(data, n);
  if (rg) program(rg, ['--files', dir]); // the page cache is warm for both (the big logs above may have pushed the tree out)
  const ours = node('scan', `const c = require(${JSON.stringify(core)}); const t = performance.now(); const r = c.scanWorkspace(${JSON.stringify(dir)}, { exclude: [], maxFileBytes: 1 << 26 }); globalThis.__out = { ms: performance.now() - t, files: r.files.length };`).out;
  const ref = rg ? program(rg, ['--files', dir]) : undefined;
  series.push({ n, ms: ours.ms, rgMs: ref?.ms });
  row(`scan ${n} files, µs per file`, { value: Number(((ours.ms * 1000) / n).toFixed(1)), unit: 'µs' }, ref && { what: '`rg --files`', value: Number(((ref.ms * 1000) / n).toFixed(1)), unit: 'µs' }, { files: ours.files });
}
if (series.length > 1) {
  const f = fit(series.map((s) => ({ x: s.n, y: s.ms })));
  const r = rg ? fit(series.map((s) => ({ x: s.n, y: s.rgMs }))) : undefined;
  row('scan fit: µs per file', { value: Number((f.perItem * 1000).toFixed(1)), unit: 'µs' }, r && { what: '`rg --files`', value: Number((r.perItem * 1000).toFixed(1)), unit: 'µs' });
  row('scan fit: fixed cost', ms(f.fixed), r && { what: '`rg --files`', ...ms(r.fixed) });
}

// ---- 5b. preview of a 1 000 / 10 000 / 100 000-file workspace: cold (no index cache), warm (the CLI's kept index),
// beside `rg --files` on the same tree in the same run; peak RSS -------------------------------------------------------
for (const n of !want('workspaces') ? [] : quick ? [1000, 10000] : [1000, 10000, 100000]) {
  log(`workspace preview, ${n} files …`);
  const ws = notesWorkspace(data, n);
  const argv = ['preview', '--workspace', ws, '--task', path.join(ws, 'task.md'), '--no-git'];
  // The CLI keeps its relevance index in the cache folder (src/cli/index-store.ts): the bench's own, emptied for the cold run.
  const cacheDir = path.join(data, 'index-cache');
  process.env.CTXCTL_CACHE_DIR = cacheDir;
  if (rg) program(rg, ['--files', ws]); // the page cache is warm for both
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const cold = node('workspace preview', cliBody(cli, argv, 'SELECTED'), { wall: true });
  const warm = node('workspace preview', cliBody(cli, argv, 'SELECTED'), { wall: true });
  const ref = rg ? program(rg, ['--files', ws]) : undefined;
  const rgRef = ref && { what: '`rg --files` wall', ...ms(ref.ms) };
  const cpu = (r) => `CPU ${Math.round(r.cpuMs)} ms`;
  // The floors of one node process on this machine: listing every folder and stating every file, as the scan does
  // (src/core/sources/scan.ts), which a warm preview must do to know what changed; and reading every file too, which
  // a cold one must do to know what the files say. Each in a fresh node process, after the previews, page cache warm.
  const floor = (read) => node('workspace floor', walkBody(ws, read), { wall: true });
  const stat = floor(false);
  const read = floor(true);
  row(`preview of ${n} files, cold (wall)`, ms(cold.ms), rgRef, { target: n === 100000 ? '≤ 15×' : undefined, result: `${cpu(cold)}; rg CPU ${Math.round(ref?.cpuMs ?? NaN)} ms; load ${os.loadavg()[0].toFixed(1)}; ${cold.out}` });
  row(`preview of ${n} files, warm (wall)`, ms(warm.ms), rgRef, { target: n === 100000 ? '≤ 300 ms' : undefined, result: `${cpu(warm)}; ${warm.out}` });
  row(`  node alone: list and stat ${n} files (wall)`, ms(stat.ms), rgRef, { result: `${cpu(stat)}; ${stat.out}` });
  row(`  node alone: list, stat and read ${n} files (wall)`, ms(read.ms), rgRef, { result: `${cpu(read)}; ${read.out}` });
  row(`preview of ${n} files, peak RSS (cold)`, { value: Math.round(cold.rssMB), unit: 'MB' }, undefined, { target: n === 100000 ? '≤ 300 MB' : undefined, perFile: `${((cold.rssMB * 1024) / n).toFixed(1)} KB per file`, result: `warm ${Math.round(warm.rssMB)} MB` });
}

// ---- 6. tokenizers ------------------------------------------------------------------------------------------------
const tokenizers = want('tokenizers') ? (log('tokenizers …'), compareTokenizers(data, core)) : [];
for (const t of tokenizers) {
  row(`tokenizer ${t.name}: load`, ms(t.loadMs), undefined);
  row(`tokenizer ${t.name}: count`, { value: Number(t.mbps.toFixed(2)), unit: 'MB/s' }, undefined, { counts: t.counts, mismatches: t.mismatches });
  if (t.longRunMs !== undefined) row(`tokenizer ${t.name}: one 1 MB run without white space`, ms(t.longRunMs), undefined, { target: '< 1 s' });
}
fs.rmSync(core, { force: true });

// ---- 7. the gateway's added latency: 100 KB streaming calls, straight to a fake upstream and through it ---------
if (want('gateway')) {
log('gateway …');
if (!fs.existsSync(path.join(root, 'out', 'test', 'unit', 'gateway', 'fake-upstream.js'))) node('tsc', `require('child_process').execFileSync(process.execPath, [${JSON.stringify(path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'))}, '-p', ${JSON.stringify(root)}], { stdio: 'inherit' }); globalThis.__out = 0;`);
{
  // 100 KB streaming requests whose last turn is a 50 KB tool result (control trims it), 50 at once and one at a
  // time, beside the same calls straight to the fake upstream and through a bare node pipe proxy, in the same rounds.
  const gw = program(process.execPath, [path.join(root, 'scripts', 'bench', 'gateway.mjs'), '--json', '--calls', quick ? '20' : '50', '--rounds', quick ? '2' : '5']);
  const got = JSON.parse(gw.stdout.trim().split('\n').at(-1));
  const [direct, floor] = got.rows;
  const added = (r, k) => `${r[k] >= direct[k] ? '+' : ''}${(r[k] - direct[k]).toFixed(1)}`;
  for (const r of got.rows.slice(1)) {
    const target = r.label === 'observe' ? '≤ +5 ms p50, ≤ +20 ms p99' : r.label === 'control' ? '≤ +30 ms p50' : 'the floor of a proxy in node';
    const delivered = `${r.events} of ${r.expectedEvents} events, ${r.bad} of ${r.streams} streams differ from the upstream's`;
    row(`gateway ${r.label}: ${got.calls} ${got.kb} KB streams at once (${got.resultKb} KB tool result), p50`, ms(r.p50), { what: 'direct', ...ms(direct.p50) }, { target, result: `added ${added(r, 'p50')} ms p50, ${added(r, 'p99')} ms p99 at once (pipe proxy ${added(floor, 'p50')} / ${added(floor, 'p99')}); one at a time ${added(r, 'seq50')} p50, ${added(r, 'seq99')} p99; ${delivered}; upstream got ${r.sentKb} KB/call; cpu ${r.cpuMsPerCall} ms/call (main thread ${r.mainCpuMsPerCall}), rss ${r.rssMb} MB (load ${got.load.toFixed(1)})` });
    row(`gateway ${r.label}: one ${got.kb} KB stream at a time, p50`, ms(r.seq50), { what: 'direct', ...ms(direct.seq50) }, {});
  }
}
}

// The machine's load beside the figures: the CPU times hold under load, the wall times do not.
const load = { start: loadAtStart.map((l) => Number(l.toFixed(2))), end: os.loadavg().map((l) => Number(l.toFixed(2))), minutes: Number(((Date.now() - startedAt.getTime()) / 60000).toFixed(1)) };
const summary = { machine: { cpus: os.cpus().length, node: process.version, rg: rg ? program(rg, ['--version']).stdout.split('\n')[0] : null, startedAt: startedAt.toISOString(), load }, rows };
if (json) {
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
} else {
  const w = Math.max(...rows.map((r) => r.figure.length));
  console.log(`\n${os.cpus().length} CPUs, Node ${process.version}, ${summary.machine.rg ?? 'no ripgrep'}; started ${startedAt.toISOString()}, ${load.minutes} min; load (1/5/15 min) ${load.start.join(' / ')} at start, ${load.end.join(' / ')} at the end\n`);
  console.log(`${'figure'.padEnd(w)}  ${'ours'.padStart(10)}  ${'reference'.padStart(10)}  ${'ratio'.padStart(7)}  target / reference`);
  for (const r of rows) {
    console.log(`${r.figure.padEnd(w)}  ${fmt(r.ours).padStart(10)}  ${(r.reference ? fmt(r.reference) : '').padStart(10)}  ${(r.ratio !== undefined ? `${r.ratio}×` : '').padStart(7)}  ${[r.target, r.reference?.what].filter(Boolean).join('; ')}`);
  }
  if (tokenizers.length) console.log('\nTokenizer counts (o200k_base) by corpus kind; mismatches are against tiktoken (WASM):');
  for (const t of tokenizers) console.log(`  ${t.name.padEnd(28)} ${Object.entries(t.counts).map(([k, v]) => `${k} ${v}`).join(', ')}${t.mismatches.length ? `  MISMATCH: ${t.mismatches.join('; ')}` : '  (identical)'}`);
  for (const r of rows.filter((x) => x.result)) console.log(`  ${r.figure}: ${r.result}`);
}
