// How the bench measures: every figure comes from a fresh child process. Node children report their own wall
// time, CPU time and peak RSS (process.resourceUsage); other programs run under /usr/bin/time.
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

export const hasTime = fs.existsSync('/usr/bin/time');

/** Run a program under /usr/bin/time: wall, CPU (user + system) and peak RSS; stdout kept. */
export function program(cmd, args, options = {}) {
  const t0 = process.hrtime.bigint();
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '@@%U %S %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, ...options })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...options });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith('@@'));
  const [user, sys, rssKB] = line ? line.slice(2).split(' ').map(Number) : [NaN, NaN, NaN];
  return { ms: wallMs, cpuMs: line ? (user + sys) * 1000 : wallMs, rssMB: rssKB / 1024, stdout: r.stdout, status: r.status };
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
