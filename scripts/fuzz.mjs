// `npm run fuzz`: every property test at ten times its unit-suite run count (at least 10 000 runs for a property at
// the default 1 000), with a fresh random seed printed per property. Replay a failure with the printed
// CTXCTL_PROP_SEED=… CTXCTL_PROP_RUNS=… before `node --test out/test/unit/<file>.test.js`.
// CTXCTL_PROP_SEED and CTXCTL_PROP_SCALE given here are passed on.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { closingLine, listTests, runNodeTests } from './test-suite.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const tsc = spawnSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error('fuzz: the typecheck failed; nothing ran.');
  process.exit(1);
}
// The property tests are the files that run through the harness (test/unit/property-harness.ts).
const files = listTests(path.join(root, 'out', 'test', 'unit')).filter((f) => fs.readFileSync(f, 'utf8').includes('property-harness'));
if (files.length === 0) {
  console.error('fuzz: no compiled property test found under out/test/unit.');
  process.exit(1);
}
const scale = process.env.CTXCTL_PROP_SCALE ?? '10';
console.log(`fuzz: ${files.length} files, CTXCTL_PROP_SCALE=${scale}${process.env.CTXCTL_PROP_SEED ? `, CTXCTL_PROP_SEED=${process.env.CTXCTL_PROP_SEED}` : ''}`);
for (const f of files) console.log(`  ${path.relative(root, f)}`);
const counts = runNodeTests(files, path.join(root, 'out', 'fuzz.tap'), { env: { CTXCTL_PROP_SCALE: scale }, require: [path.join(root, 'out', 'test', 'unit', 'host-setup.js')] });
console.log(`\n${closingLine('fuzz', counts)}`);
process.exit(counts.failed === 0 && counts.passed > 0 ? 0 : 1);
