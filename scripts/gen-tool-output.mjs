#!/usr/bin/env node
// Generates the tool-output evaluation corpus in test/fixtures/tool-output/: one log per system, in the shape of
// the public Loghub samples (Hadoop, HDFS, Spark, ZooKeeper, Apache error, Android logcat, BGL RAS, Linux syslog,
// macOS, OpenSSH, OpenStack, Windows CBS, Proxifier, HealthApp, HPC) plus CI and test outputs (GitHub Actions,
// jest, pytest, klog, JSON lines). Each NAME.log has a NAME.truth.json beside it: every error and warning template
// the log holds, as written by the system (variable parts as <*>), and its severity. The truth is written here,
// from what each message means, never from what the trimmer detects.
//
// Deterministic: a seeded PRNG, no clock. `node scripts/gen-tool-output.mjs [dir]`.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './prng.mjs';
import { SYSTEMS } from './tool-output-systems.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(repoRoot, 'test/fixtures/tool-output'));
mkdirSync(outDir, { recursive: true });

for (const [i, system] of SYSTEMS.entries()) {
  const rand = mulberry32(0x70_0000 + i * 7919);
  const r = {
    rand,
    int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(rand() * arr.length)],
    hex: (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join(''),
    ip: () => `10.${Math.floor(rand() * 250) + 1}.${Math.floor(rand() * 250) + 1}.${Math.floor(rand() * 250) + 1}`,
  };
  r.uuid = () => `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-a${r.hex(3)}-${r.hex(12)}`;
  const { lines, truth } = generate(system, r);
  writeFileSync(join(outDir, `${system.name}.log`), lines.join('\n') + '\n');
  writeFileSync(join(outDir, `${system.name}.truth.json`), JSON.stringify({ system: system.name, format: system.format, templates: truth }, null, 2) + '\n');
}
console.log(`${SYSTEMS.length} logs written to ${outDir}`);

/**
 * Lines drawn by weight from the system's templates; every error and warning template occurs at least once, placed
 * in bursts around a few incidents, as failures come in real logs. A template's `emit` may return several lines
 * (a stack trace).
 */
function generate(system, r) {
  const n = system.lines ?? 2400;
  let t = system.start;
  const info = system.templates.filter((x) => x.severity === 'info');
  const evidence = system.templates.filter((x) => x.severity !== 'info');
  const infoWeight = info.reduce((s, x) => s + (x.weight ?? 1), 0);
  // Where each evidence template occurs: once at least, more for the frequent ones, near a few incident centres.
  const centres = Array.from({ length: 3 }, () => r.int(Math.floor(n * 0.1), Math.floor(n * 0.9)));
  const at = new Map();
  for (const x of evidence) {
    const times = 1 + Math.floor(r.rand() * (x.repeat ?? 3));
    for (let k = 0; k < times; k++) {
      const i = Math.max(0, Math.min(n - 1, r.pick(centres) + r.int(-150, 150)));
      at.set(i, [...(at.get(i) ?? []), x]);
    }
  }
  const out = [...(system.header ? system.header(r) : [])];
  for (let i = 0; out.length < n || i < n; i++) {
    t += r.int(system.stepMin ?? 5, system.stepMax ?? 900);
    for (const x of at.get(i) ?? []) out.push(...[].concat(system.line(t, x.level ?? x.severity, x.emit(r), r, x)));
    let w = r.rand() * infoWeight;
    const x = info.find((y) => (w -= y.weight ?? 1) < 0) ?? info[0];
    out.push(...[].concat(system.line(t, x.level ?? 'info', x.emit(r), r, x)));
    if (i > n * 3) break;
  }
  if (system.footer) out.push(...system.footer(r));
  return { lines: out, truth: evidence.map((x) => ({ severity: x.severity, template: x.template })) };
}
