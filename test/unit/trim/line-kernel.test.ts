import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { InfoColumn, LEVEL_INFO, leadingLevelCode } from '../../../src/core/trim/level-column';
import { structuredInfo } from '../../../src/core/trim/structured-level';
import { LineKernel, RUN_LINES } from '../../../src/core/trim/line-kernel';
import { JSON_LEVEL_KEYS } from '../../../src/core/trim/level-rule';
import { REPO } from '../helpers';
import { prng, shapeRuns } from './fixtures';

/** The line kernel (line-kernel.wat) against the rule it implements: InfoColumn's shape, checked byte by byte here. */

const AFTER = new Set([...' \t\n\v\f\r]|:>)-'].map((c) => c.charCodeAt(0)));
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** The shape rule, plainly: the line repeats `b[shape, shape + n)`, a digit for any digit, then (`after`) ends or goes on with an AFTER byte. */
function repeats(b: Uint8Array, s: number, e: number, shape: number, n: number, after: boolean): boolean {
  if (e - s < n) return false;
  for (let k = 0; k < n; k++) {
    const c = b[s + k];
    const t = b[shape + k];
    if (c !== t && !(isDigit(c) && isDigit(t))) return false;
  }
  return s + n === e || !after || AFTER.has(b[s + n]);
}

const HEADS = [
  '2026-11-12T00:00:00.026Z  INFO 4821 --- [exec-0] c.a.p.Foo : msg',
  '2026-11-12 00:00:00,026 DEBUG [main] c.a.Foo - x',
  '[2026-11-12 08:00:00] TRACE x',
  '12:00 INF x',
  '2026-11-12T08:00:00Z INFO',
  '{"time":"2026-11-12T08:00:00.123Z","level":"INFO","msg":"payment 42 created"}',
  '{"ts":1731398400.123,"lvl":"debug","caller":"api/x.go:42"}',
  'time=2026-11-12T08:00:00Z level=info msg="payment 42 created"',
  'level=info ts=2026-11-12T08:00:00Z caller=main.go:7',
];
const NOISE = ['0', '9', ':', ' ', 'T', 'Z', 'S', 'a', '[', ']', ';', '\r', 'é', '\n'];

function lines(seed: number, n: number): string[] {
  const rand = prng(seed);
  return shapeRuns(rand, HEADS, n, 0.02, (head) => {
    const line = head + (rand() < 0.3 ? ' '.repeat(Math.floor(rand() * 40)) + 'x'.repeat(Math.floor(rand() * 90)) : '');
    if (rand() >= 0.1) return line;
    const at = Math.floor(rand() * Math.min(line.length, 34));
    return line.slice(0, at) + NOISE[Math.floor(rand() * NOISE.length)] + line.slice(at + 1);
  });
}

/** The first bytes of the string level keys as the rule folds them (level-column.ts's KEY_FIRST_BYTES, written out). */
const KEY_FOLDS = new Set(JSON_LEVEL_KEYS.map((k) => k.charCodeAt(0) | 0x20));

/** After a numeric level's shape: the rest of the line holds no `"` before a byte that folds to a key's first. */
function restClean(b: Uint8Array, from: number, e: number): boolean {
  for (let k = from; k + 1 < e; k++) if (b[k] === 0x22 && KEY_FOLDS.has(b[k + 1] | 0x20)) return false;
  return true;
}

/** pino lines: level 30 but 1 % 40 and 1 % 50, times and pids that change, 2 % with a key after the level that may be a string level. */
function pinoLines(seed: number, n: number): string[] {
  const rand = prng(seed);
  const digits = (k: number) => Array.from({ length: k }, () => String(Math.floor(rand() * 10))).join('');
  const keys = ['"lvl":"error"', '"severity":"info"', '"Level":"warn"', '"@l":"x"', '"s":1', '"ok":true'];
  return Array.from({ length: n }, () => {
    const r = rand();
    const level = r < 0.01 ? '50' : r < 0.02 ? '40' : r < 0.025 ? '20' : '30';
    const extra = rand() < 0.02 ? `,${keys[Math.floor(rand() * keys.length)]}` : '';
    return `{"level":${level},"time":17313984${digits(5)},"pid":${digits(4)},"hostname":"web-${digits(1)}","msg":"request ${digits(3)} done"${extra}}`;
  });
}

/**
 * Runs the kernel over `text` as pass 1 does (InfoColumn tells it each shape), checking each line it takes against
 * the shape and the full rules, and that it stops only at a line that does not repeat the shape.
 */
function checkRuns(text: Buffer): { taken: number; runs: number; stops: { numeric: number } } {
  const kernel = LineKernel.create(text.length + 64);
  assert.ok(kernel, 'WebAssembly with SIMD is there in Node');
  text.copy(kernel.buf);
  let shape = -1;
  let n = 0;
  let after = true;
  let numeric = -1;
  const column = new InfoColumn(kernel.buf, (start, length, checkAfter, digits) => {
    shape = start;
    n = length;
    after = checkAfter;
    numeric = digits;
    kernel.shape(start, length, checkAfter, digits);
  });
  /** The shape, with a numeric level's digits exactly and a clean rest. */
  const repeatsShape = (p: number, e: number) =>
    repeats(kernel.buf, p, e, shape, n, after) && (numeric < 0 || (kernel.buf[p + numeric] === kernel.buf[shape + numeric] && kernel.buf[p + numeric + 1] === kernel.buf[shape + numeric + 1] && restClean(kernel.buf, p + n, e)));
  const end = text.length;
  let p = 0;
  let taken = 0;
  let runs = 0;
  const stops = { numeric: 0 };
  while (p < end) {
    if (kernel.ready) {
      const k = kernel.take(p, end);
      for (let i = 0; i < k; i++) {
        assert.equal(kernel.starts[i], p, `line start ${i} of the run`);
        const e: number = kernel.buf.indexOf(10, p);
        assert.ok(repeatsShape(p, e), `taken line at ${p} repeats the shape`);
        assert.ok(leadingLevelCode(kernel.buf, p, e) === LEVEL_INFO || structuredInfo(kernel.buf, p, e), `an info line by the full rules: ${kernel.buf.toString('latin1', p, e)}`);
        p = e + 1;
      }
      assert.equal(kernel.at, p);
      taken += k;
      if (k > 0) runs++;
    }
    if (p >= end) break;
    // The line the kernel stopped at does not repeat the shape (no run is capped here).
    const e: number = kernel.buf.indexOf(10, p);
    if (kernel.ready) {
      assert.equal(repeatsShape(p, e), false, `line at ${p}: ${JSON.stringify(kernel.buf.toString('latin1', p, e))}`);
      if (numeric >= 0) stops.numeric++;
    }
    // InfoColumn, which reads the lines the kernel leaves, calls info exactly the lines the full rules do.
    const info = column.isInfo(p, e) || column.isStructuredInfo(p, e);
    assert.equal(info, leadingLevelCode(kernel.buf, p, e) === LEVEL_INFO || structuredInfo(kernel.buf, p, e), `InfoColumn on ${kernel.buf.toString('latin1', p, e)}`);
    p = e + 1;
  }
  return { taken, runs, stops };
}

describe('the line kernel (WebAssembly)', () => {
  it('is the assembly of line-kernel.wat (scripts/gen-line-kernel.mjs --check)', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'gen-line-kernel.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('anchors the trigger words by counts of their own sequences (scripts/gen-anchor-counts.mjs --check)', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'gen-anchor-counts.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  for (const seed of [1, 2, 3]) {
    it(`takes exactly the runs of lines that repeat the last info line's shape, and where they start (seed ${seed})`, () => {
      const { taken, runs } = checkRuns(Buffer.from(lines(seed, 20_000).join('\n') + '\n'));
      assert.ok(taken > 12_000 && runs > 100, `${taken} lines in ${runs} runs`);
    });
  }

  for (const seed of [1, 2]) {
    it(`a pino log: the level's digits repeat exactly, and no string level key follows (seed ${seed})`, () => {
      const text = Buffer.from(pinoLines(seed, 20_000).join('\n') + '\n');
      const { taken, runs, stops } = checkRuns(text);
      // Most lines are info lines of one shape (2 % warn and error, 2 % with a key after the level that may be one).
      assert.ok(taken > 17_000 && runs > 100, `${taken} lines in ${runs} runs`);
      assert.ok(stops.numeric > 200, `${stops.numeric} stops at a numeric shape`);
    });
  }

  it(`stops after ${RUN_LINES} lines, and at a last line without its newline`, () => {
    const one = '2026-11-12T08:00:00Z INFO tick';
    const text = Buffer.from(`${one}\n`.repeat(RUN_LINES + 10) + one);
    const kernel = LineKernel.create(text.length);
    assert.ok(kernel);
    text.copy(kernel.buf);
    kernel.shape(0, 25, true);
    assert.equal(kernel.take(0, text.length), RUN_LINES);
    assert.equal(kernel.at, RUN_LINES * (one.length + 1));
    assert.equal(kernel.take(kernel.at, text.length), 10);
    assert.equal(kernel.at, text.length - one.length, 'the last line has no newline: left to the caller');
    // The same bytes with a shorter end: a line is taken only when its newline is before the end.
    assert.equal(kernel.take(0, one.length), 0);
    assert.equal(kernel.take(0, one.length + 1), 1);
  });

  it('takes no line while there is no shape, or when the shape is too long to hold', () => {
    const kernel = LineKernel.create(1024);
    assert.ok(kernel);
    kernel.buf.write('2026-11-12T08:00:00Z INFO a\n2026-11-12T08:00:01Z INFO b\n');
    assert.equal(kernel.ready, false);
    assert.equal(kernel.take(0, 56), 0);
    kernel.shape(0, 300, true);
    assert.equal(kernel.ready, false);
    assert.equal(kernel.take(0, 56), 0);
    kernel.shape(0, 25, true);
    assert.equal(kernel.take(0, 56), 2);
    // The same head as a structured shape: any byte may follow it.
    kernel.buf.write('2026-11-12T08:00:00Z INFOS a\n2026-11-12T08:00:01Z INFO b\n');
    assert.equal(kernel.take(0, 57), 0);
    kernel.shape(0, 25, false);
    assert.equal(kernel.take(0, 57), 2);
  });
});
