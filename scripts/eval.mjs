#!/usr/bin/env node
// `npm run eval`: trims every log of the tool-output corpus (test/fixtures/tool-output, made by
// scripts/gen-tool-output.mjs) at the default policy, as the chain trims a workspace log, and prints per format the
// error/warning templates kept of the ground truth, the tokens before → after, and the reason's accuracy (its
// figures checked against the text sent). Runs on the TypeScript output in out/ (tsc -p .).
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { evaluateCorpus } = require(path.join(root, 'out/src/core/trim/evaluate.js'));
const { defaultPolicy } = require(path.join(root, 'out/src/core/policy.js'));
const { counterFor } = require(path.join(root, 'out/src/core/tokens.js'));
// The core reaches the disk only through the installed Host.
require(path.join(root, 'out/src/host/disk.js')).installDiskHost();

const dir = path.resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? path.join(root, 'test/fixtures/tool-output'));
const rows = evaluateCorpus(dir, defaultPolicy(), counterFor('o200k_base'));
const pct = (a, b) => (b === 0 ? '—' : `${Math.round((100 * a) / b)} %`);
const table = [['format', 'lines', 'templates kept / total', 'tokens before → after', 'reason accuracy']];
for (const r of rows) table.push([r.system, String(r.lines), `${r.kept} / ${r.total} (${pct(r.kept, r.total)})`, `${r.tokensBefore} → ${r.tokensAfter}`, `${r.reasonRight} / ${r.reasonChecked}`]);
const kept = rows.reduce((n, r) => n + r.kept, 0);
const total = rows.reduce((n, r) => n + r.total, 0);
const rc = rows.reduce((n, r) => n + r.reasonChecked, 0);
const rr = rows.reduce((n, r) => n + r.reasonRight, 0);
table.push(['all', String(rows.reduce((n, r) => n + r.lines, 0)), `${kept} / ${total} (${pct(kept, total)})`, `${rows.reduce((n, r) => n + r.tokensBefore, 0)} → ${rows.reduce((n, r) => n + r.tokensAfter, 0)}`, `${rr} / ${rc}`]);
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
for (const row of table) console.log(`| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
const verbose = process.argv.includes('--verbose');
for (const r of rows) {
  if (r.missing.length > 0) console.log(`\n${r.system}: missing ${r.missing.length}\n  ${r.missing.join('\n  ')}`);
  if (verbose) console.log(`  reason: ${r.note}`);
}
const worst = Math.min(...rows.map((r) => (r.total === 0 ? 1 : r.kept / r.total)));
console.log(`\nacross the corpus: ${pct(kept, total)} of error/warning templates kept; lowest format: ${Math.round(worst * 100)} %`);
