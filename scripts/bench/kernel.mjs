#!/usr/bin/env node
// What the line kernel (src/core/trim/line-kernel.wat) is worth on the bench's headline: two bundles of the CLI from
// src, the kernel as shipped ('auto') and switched off ('never'), each previewing the headline log (bench/gen.mjs,
// 512 MiB by default) in a fresh process, interleaved, beside `rg -c ERROR` in the same run; CPU times and medians.
// Keep the kernel while the ratio without it misses the bench's 10× target and the ratio with it does not.
//
//   node scripts/build.mjs && node scripts/bench/kernel.mjs [--runs N] [--mib M] [--data DIR] [--no-build]
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { logWorkspace } from './gen.mjs';
import { cliBody, median, node, program } from './measure.mjs';
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(root);
const data = process.argv.includes('--data') ? path.resolve(process.argv[process.argv.indexOf('--data') + 1]) : '/tmp/ctxctl-bench';
const out = path.join(data, 'kernel');
fs.mkdirSync(out, { recursive: true });
if (!fs.existsSync(path.join(root, 'dist', 'ranks'))) throw new Error('dist/ranks is missing: run node scripts/build.mjs first');
fs.rmSync(path.join(out, 'ranks'), { force: true });
fs.symlinkSync(path.join(root, 'dist', 'ranks'), path.join(out, 'ranks'));
const ranksApart = { name: 'ranks-apart', setup(b) { b.onResolve({ filter: /^js-tiktoken\/ranks\/[a-z0-9_]+$/ }, (a) => ({ path: `./ranks/${a.path.split('/').pop()}.js`, external: true })); } };
const kernel = (mode) => ({ name: 'kernel', setup(b) { b.onLoad({ filter: /log-bytes\.ts$/ }, (a) => ({ loader: 'ts', contents: fs.readFileSync(a.path, 'utf8').replace("let kernelMode: 'auto' | 'always' | 'never' = 'auto';", `let kernelMode: 'auto' | 'always' | 'never' = '${mode}';`) })); } });
const runs = Number(process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : 5);
if (!process.argv.includes('--no-build')) for (const mode of ['auto', 'never']) {
  await esbuild.build({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', entryPoints: ['src/cli/main.ts'], outfile: `${out}/cli-${mode}.js`, plugins: [ranksApart, kernel(mode)], alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' } });
  const src = fs.readFileSync(`${out}/cli-${mode}.js`, 'utf8');
  if (!src.includes(`kernelMode = "${mode}"`)) throw new Error(`bundle ${mode}: switch not applied`);
}
const ws = logWorkspace(data, Number(process.argv.includes('--mib') ? process.argv[process.argv.indexOf('--mib') + 1] : 512));
const file = path.join(ws, 'logs', 'app.log');
const res = { auto: [], never: [], rg: [] };
for (let i = 0; i < runs; i++) {
  for (const mode of ['auto', 'never']) {
    const r = node('preview', cliBody(`${out}/cli-${mode}.js`, ['preview', '--workspace', ws, '--task', path.join(ws, 'task.md')], 'app.log|FINAL'));
    res[mode].push(r.cpuMs);
  }
  res.rg.push(program('rg', ['-c', 'ERROR', file]).cpuMs);
}
const m = (xs) => Math.round(median(xs));
console.log(JSON.stringify({ runs, kernel: res.auto.map(Math.round), noKernel: res.never.map(Math.round), rg: res.rg.map(Math.round), median: { kernel: m(res.auto), noKernel: m(res.never), rg: m(res.rg) }, ratio: { kernel: (median(res.auto) / median(res.rg)).toFixed(1), noKernel: (median(res.never) / median(res.rg)).toFixed(1) } }));
