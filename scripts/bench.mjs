#!/usr/bin/env node
// Benchmark (`npm run bench`, which builds first): trimming a generated 50 MB log, side by side with a naive
// baseline (readFileSync whole + split + filter), and the full preview on the example. Every figure comes from a
// fresh child process: wall time measured inside it, peak memory from process.resourceUsage().maxRSS.
//
//   node scripts/bench.mjs [--mb 50] [--keep]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { mulberry32 } from './prng.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const mb = Number(args[args.indexOf('--mb') + 1] ?? 50) || 50;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-bench-'));
const ws = path.join(work, 'workspace');
const bigLog = path.join(ws, 'logs', 'big.log');
const cli = path.join(root, 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run bench` (it builds first) or `node scripts/build.mjs`.');
  process.exit(2);
}

// ---- a deterministic 50 MB Spring-style log: noise, correlated requests, a few errors with long stack traces ----
function generate(file, bytes) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const rand = mulberry32(0x50_4d_42);
  const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const errors = [
    '400 BAD_REQUEST POST /v1/payments: paymentMethod is required',
    'Ledger call failed: Read timed out after 3000ms',
    'Settlement export failed for batch: SFTP upload timed out',
  ];
  const fd = fs.openSync(file, 'w');
  let t = Date.parse('2026-11-12T00:00:00.000Z');
  let written = 0;
  let n = 0;
  let chunk = [];
  while (written < bytes) {
    t += Math.floor(rand() * 40);
    const ts = new Date(t).toISOString();
    const corr = uuid();
    if (n % 9000 === 4500) {
      chunk.push(`${ts} DEBUG 4821 --- [exec-${n % 20}] c.a.p.web.RequestLoggingFilter : [corr=${corr}] POST /v1/payments client=pos-legacy/4.2.1`);
      chunk.push(`${ts} ERROR 4821 --- [exec-${n % 20}] c.a.p.api.ApiExceptionHandler : [corr=${corr}] ${errors[Math.floor(rand() * errors.length)]}`);
      chunk.push('org.springframework.web.client.ResourceAccessException: I/O error on POST request: ' + 'x'.repeat(400));
      for (let f = 0; f < 40; f++) chunk.push(`\tat com.acme.payments.layer${f}.Handler.call(Handler.java:${100 + f})`);
    } else {
      chunk.push(`${ts}  INFO 4821 --- [exec-${n % 20}] c.a.p.api.PaymentController : [corr=${corr}] Payment created id=pay_${hex(20)} amount=${(rand() * 500).toFixed(2)} EUR`);
    }
    n++;
    if (chunk.length >= 2000) {
      const text = chunk.join('\n') + '\n';
      fs.writeSync(fd, text);
      written += Buffer.byteLength(text);
      chunk = [];
    }
  }
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

// ---- the core, bundled from src (the same code dist/cli.js carries) -------------------------------------------------
async function bundleCore() {
  const out = path.join(work, 'core.cjs');
  await esbuild.build({
    stdin: {
      contents: "export { trimToolOutputs } from './src/core/chain/trim'; export { fileLines } from './src/core/sources/scan'; export { defaultPolicy } from './src/core/policy'; export { counterFor } from './src/core/tokens'; export { STREAM_CHUNK_BYTES } from './src/core/trim/lines';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: out, logLevel: 'warning',
  });
  return out;
}

// ---- one measurement: a child process reports its own time and peak RSS ---------------------------------------
const REPORT = `process.on('exit', () => process.stderr.write('\\n@@' + JSON.stringify({ ms: performance.now() - globalThis.__t0, rssMB: process.resourceUsage().maxRSS / 1024, out: globalThis.__out })));`;
function measure(label, body) {
  const script = `globalThis.__t0 = performance.now(); ${REPORT}\n${body}`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith('@@'));
  if (r.status !== 0 || !line) {
    console.error(`${label} failed (exit ${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
  return { label, ...JSON.parse(line.slice(2)) };
}

const runCli = (argv) => `const { run } = require(${JSON.stringify(cli)}); let out = ''; Promise.resolve(run(${JSON.stringify(argv)}, { stdout: (s) => { out += s; }, stderr: (s) => process.stderr.write(s) })).then((code) => { if (code !== 0) process.exit(code); globalThis.__out = out.split('\\n').find((l) => / TRIMMED | matching lines|FINAL|^\\s+\\d[\\d ]* \\/ /.test(l))?.trim(); });`;

console.log(`Generating a ${mb} MB log in ${work} …`);
const size = generate(bigLog, mb * 1024 * 1024);
fs.writeFileSync(path.join(ws, 'task.md'), 'Why are legacy POS payments rejected?\n');
const core = await bundleCore();
const rows = [];
rows.push(measure('node, doing nothing (reference)', ''));
rows.push(measure('node + o200k tokenizer loaded (reference)', `const { counterFor } = require(${JSON.stringify(core)}); counterFor('o200k_base').count('warm up');`));
rows.push(
  measure(
    'baseline: readFileSync whole + split + filter',
    `const fs = require('fs'); const text = fs.readFileSync(${JSON.stringify(bigLog)}, 'utf8'); const kept = text.split('\\n').filter((l) => /ERROR|FATAL/.test(l)); globalThis.__out = kept.length + ' error lines kept';`,
  ),
);
rows.push(
  measure(
    'ours: trim (trimToolOutputs, streamed)',
    `const c = require(${JSON.stringify(core)}); const policy = c.defaultPolicy(); const out = c.trimToolOutputs([{ path: 'logs/big.log', size: ${size}, lines: () => c.fileLines(${JSON.stringify(bigLog)}, c.STREAM_CHUNK_BYTES) }], policy, c.counterFor('o200k_base')); const t = out.decisions.trimmed[0]; globalThis.__out = t.retained_lines + ' of ' + t.original_lines + ' lines, ' + t.tokens + ' tokens';`,
  ),
);
rows.push(
  measure(
    'ours: the same trim, counting by estimate (no tokenizer)',
    `const c = require(${JSON.stringify(core)}); const policy = c.defaultPolicy(); const out = c.trimToolOutputs([{ path: 'logs/big.log', size: ${size}, lines: () => c.fileLines(${JSON.stringify(bigLog)}, c.STREAM_CHUNK_BYTES) }], policy, { encoding: 'estimate', count: (t) => Math.ceil(t.length / 3.6) }); const t = out.decisions.trimmed[0]; globalThis.__out = t.retained_lines + ' of ' + t.original_lines + ' lines, ~' + t.tokens + ' tokens';`,
  ),
);
rows.push(measure('ours: ctxctl inspect --count --grep ERROR', runCli(['inspect', bigLog, '--count', '--grep', 'ERROR', '--max-matches', '5'])));
rows.push(measure('ours: ctxctl preview, workspace with the log', runCli(['preview', '--workspace', ws, '--task', path.join(ws, 'task.md')])));
rows.push(measure('ctxctl preview, examples/payment-incident', runCli(['preview', '--workspace', path.join(root, 'examples', 'payment-incident'), '--task', path.join(root, 'examples', 'payment-incident', 'ticket.md')])));

const w = Math.max(...rows.map((r) => r.label.length));
console.log(`\nInput: ${(size / 1024 / 1024).toFixed(1)} MB, ${os.cpus().length} CPUs, Node ${process.version}\n`);
console.log(`${'what'.padEnd(w)}  ${'time'.padStart(9)}  ${'peak RSS'.padStart(9)}  result`);
for (const r of rows) console.log(`${r.label.padEnd(w)}  ${`${(r.ms / 1000).toFixed(2)} s`.padStart(9)}  ${`${Math.round(r.rssMB)} MB`.padStart(9)}  ${r.out ?? ''}`);
if (!args.includes('--keep')) fs.rmSync(work, { recursive: true, force: true });
