/** Tool results of a chosen size, generated (seeded) and written to a temporary folder, as a tool would return them. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLines } from '../../../src/core/sources/scan';
import type { ToolResult } from '../../../src/core/offload/results';
import { counter } from '../helpers';
import { prng } from '../trim/fixtures';

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `ctxctl-${prefix}-`));
}

/** A JSON API response of about `tokens` tokens (o200k): records are added until the count is reached. */
export function payload(tokens: number, seed: number): string {
  const rand = prng(seed);
  const words = ['payment', 'legacy', 'terminal', 'refund', 'settlement', 'ledger', 'merchant', 'webhook', 'retry', 'card'];
  const records: string[] = [];
  let sum = 12;
  while (sum < tokens) {
    const r = JSON.stringify({ id: `evt_${Math.floor(rand() * 1e9).toString(36)}`, type: words[Math.floor(rand() * 10)], detail: Array.from({ length: 12 }, () => words[Math.floor(rand() * 10)]).join(' '), amount: Math.floor(rand() * 100000) / 100 });
    sum += counter.count(`  ${r},\n`);
    records.push(`  ${r}`);
  }
  return `{"results": [\n${records.join(',\n')}\n], "count": ${records.length}}\n`;
}

/** Write results to files and describe them as the snapshot does for `--tool-result NAME=FILE`. */
export function writeResults(dir: string, specs: { name: string; text: string }[], root?: string): ToolResult[] {
  return specs.map(({ name, text }) => {
    const abs = path.join(dir, `${name}.json`);
    fs.writeFileSync(abs, text);
    const rel = root ? path.relative(root, abs).split(path.sep).join('/') : undefined;
    return { name, source: `tool:${name}`, abs, workspacePath: rel && !rel.startsWith('..') ? rel : undefined, size: Buffer.byteLength(text), lines: () => fileLines(abs) };
  });
}
