// How the bench measures: every figure comes from a fresh child process. Node children report their own wall
// time, CPU time and peak RSS (process.resourceUsage); other programs run under bash's `time`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

const REPORT = `process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\n@@' + JSON.stringify({ ms: performance.now() - globalThis.__t0, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rssMB: u.maxRSS / 1024, out: globalThis.__out })); });`;

/** Run `body` in a fresh node; `ms` is measured inside it from the first line (node's own start-up excluded). */
export function node(label, body, { wall = false } = {}) {
  const script = `globalThis.__t0 = performance.now(); ${REPORT}\n${body}`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith('@@'));
  if (r.status !== 0 || !line) throw new Error(`${label} failed (exit ${r.status}):\n${(r.stderr ?? '').slice(-3000)}`);
  const m = JSON.parse(line.slice(2));
  return { label, ...m, wallMs, ...(wall ? { ms: wallMs } : {}) };
}

const hasBash = fs.existsSync('/bin/bash');

/**
 * Run a program: its wall time and CPU time (user + system) to the millisecond, and its stdout. The times are bash's
 * `time` of the program alone (the rusage of its wait, microsecond-precise, printed to the millisecond). GNU time's
 * %U and %S are cut to 10 ms steps each, which made a 60 ms reference read about 11 ms low on average (measured
 * both ways on the same runs: docs/performance.md). Without bash, the wall time stands for both.
 */
export function program(cmd, args, options = {}) {
  const t0 = process.hrtime.bigint();
  const r = hasBash
    ? spawnSync('/bin/bash', ['-c', 'TIMEFORMAT="@@%3R %3U %3S"; time "$@"', 'bash', cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, ...options })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...options });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  const line = (r.stderr ?? '').split('\n').findLast((l) => l.startsWith('@@'));
  const [real, user, sys] = line ? line.slice(2).split(' ').map(Number) : [NaN, NaN, NaN];
  return line ? { ms: real * 1000, cpuMs: (user + sys) * 1000, stdout: r.stdout, status: r.status } : { ms: wallMs, cpuMs: wallMs, stdout: r.stdout, status: r.status };
}

/** `program` run `runs` times: the run of median CPU time (the first run of a big file warms the page cache: run it apart). */
export function medianRun(cmd, args, runs = 3) {
  const all = Array.from({ length: runs }, () => program(cmd, args)).sort((a, b) => a.cpuMs - b.cpuMs);
  return all[Math.floor(all.length / 2)];
}

export function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Least squares `y = a + b·x`: the fixed cost and the cost per item of a scaling series. */
export function fit(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const b = sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  return { fixed: my - b * mx, perItem: b };
}

/** The body of a child that runs the CLI (dist/cli.js) and keeps the line of its output matching `pick`. */
export function cliBody(cli, argv, pick = 'TRIMMED|FINAL') {
  return `const { run } = require(${JSON.stringify(cli)}); let out = ''; Promise.resolve(run(${JSON.stringify(argv)}, { stdout: (s) => { out += s; }, stderr: (s) => process.stderr.write(s) })).then((code) => { if (code !== 0) process.exit(code); globalThis.__out = out.split('\\n').filter((l) => new RegExp(${JSON.stringify(pick)}).test(l)).map((l) => l.trim()).join(' | ').slice(0, 160); });`;
}

/**
 * A node script that lists every folder under `root` (readdir with file types) and states every file, as the
 * workspace scan does, and with `read` reads each file whole too: the least a preview of that tree can cost in one
 * node process. `__out` says how many files it stated, and how many bytes it read.
 */
export function walkBody(root, read) {
  const visit = read ? 'fs.statSync(abs); bytes += fs.readFileSync(abs).length;' : 'fs.statSync(abs);';
  return `const fs = require('fs'); const path = require('path'); let files = 0; let bytes = 0;
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const abs = path.join(dir, e.name); if (e.isDirectory()) walk(abs); else if (e.isFile()) { files++; ${visit} } } };
walk(${JSON.stringify(root)}); globalThis.__out = \`\${files} files stated${read ? ', ${bytes} bytes read' : ''}\`;`;
}
