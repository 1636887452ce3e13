import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { redactLine } from '../../../src/core/redact/apply';
import { CHUNK } from '../../../src/core/trim/byte-lines';
import { searchIds, type ChunkLines } from '../../../src/core/trim/corr-search';
import { scanFileBytes, useCorrSearch, useLineKernel } from '../../../src/core/trim/log-bytes';
import { CORR_RADIUS, ErrorScanner } from '../../../src/core/trim/log-scan';
import { prng } from './fixtures';

/**
 * Issue 30: the correlated lines found in one pass for all watched ids (corr-search.ts) are exactly those the
 * per-id search (one Buffer#indexOf per id per range) finds, on generated logs: ids sharing their last bytes, ids
 * inside other ids, ids on info lines the kernel never decodes, errors near chunk ends, CRLF, a last line without
 * a line end.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-corr-search-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function generated(seed: number, records: number, opts: { crlf?: boolean; tail?: boolean; short?: boolean } = {}): string {
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  // Few distinct suffixes and prefixes: many ids end with the same four bytes, some are inside others.
  // Every id is 10 characters or more; with `short`, one in five is 6 (the shortest an id can be: the smallest stride).
  const ids = Array.from({ length: 400 }, (_, k) => (opts.short && k % 5 === 4 ? `sx${1000 + k}` : k % 5 === 0 ? `req-${k % 7}${'ab'.repeat(1 + (k % 3))}-0001` : k % 5 === 1 ? `x${k}req-${k % 7}abab-0001` : `${(k * 7919).toString(16)}-${k % 11}beef`));
  const out: string[] = [];
  const eol = () => (opts.crlf && rand() < 0.3 ? '\r\n' : '\n');
  for (let n = 0; n < records; n++) {
    const id = ids[int(ids.length)];
    const ts = `2026-11-12T08:${String(int(60)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}.${String(int(1000)).padStart(3, '0')}Z`;
    const r = rand();
    if (r < 0.02) out.push(`${ts} ERROR 1 --- [w-${n % 5}] c.a.Svc${int(40)} : [corr=${id}] call ${int(40)} failed: code ${int(9)}`);
    else if (r < 0.03) out.push(`${ts}  WARN 1 --- [w-1] c.a.Slow : [corr=${id}] slow`);
    else if (r < 0.5) out.push(`${ts}  INFO 1 --- [w-2] c.a.Api : [corr=${id}] step ${int(9)} parent=${ids[int(ids.length)]}`);
    else if (r < 0.52) out.push(`${id} at the start of a line without level`);
    else if (r < 0.54) out.push(`no level, the id at the end ${id}`);
    else out.push(`${ts}  INFO 1 --- [w-3] c.a.Noise : nothing to see ${int(1e6)}`);
    out.push(eol());
  }
  const text = out.join('');
  return opts.tail ? text + `2026-11-12T09:00:00.000Z ERROR 1 --- [w-0] c.a.End : [corr=${ids[0]}] last line without a line end` : text;
}

function correlated(abs: string, mode: 'once' | 'each' | 'auto', kernel: 'always' | 'never'): [number, string][] {
  useCorrSearch(mode);
  useLineKernel(kernel);
  try {
    const index = scanFileBytes(abs, new ErrorScanner(redactLine), CORR_RADIUS);
    assert.ok(index?.correlated, 'the byte path found correlated lines');
    return [...index.correlated].sort((a, b) => a[0] - b[0]);
  } finally {
    useCorrSearch('auto');
    useLineKernel('auto');
  }
}

/** A chunk holding `lines` (each followed by a line end when `eol`), its first line numbered `firstLine`. */
function chunkOf(lines: string[], firstLine: number, eol: boolean): ChunkLines {
  const buf = Buffer.from(lines.join('\n') + (eol ? '\n' : ''), 'latin1');
  const starts = new Int32Array(lines.length);
  for (let k = 1; k < lines.length; k++) starts[k] = starts[k - 1] + lines[k - 1].length + 1;
  return { buf, starts, firstLine, lines: lines.length, end: buf.length };
}

describe('correlated lines in one pass', () => {
  const cases: [string, string][] = [
    ['seeded small log 1', generated(1, 3000)],
    ['seeded small log 2, CRLF and a last line without a line end', generated(2, 5000, { crlf: true, tail: true })],
    ['seeded log over two chunks', generated(3, Math.ceil((1.3 * CHUNK) / 90))],
    ['seeded log with 6-character ids', generated(4, 5000, { short: true })],
  ];
  for (const [name, text] of cases) {
    it(`${name}: the same lines, with the same text, as one Buffer#indexOf per id`, () => {
      const abs = path.join(dir, `${name.replace(/\W+/g, '-')}.log`);
      fs.writeFileSync(abs, text);
      for (const kernel of ['always', 'never'] as const) {
        const each = correlated(abs, 'each', kernel);
        assert.ok(each.length > 50, `${each.length} correlated lines`);
        assert.deepEqual(correlated(abs, 'once', kernel), each);
        assert.deepEqual(correlated(abs, 'auto', kernel), each);
      }
    });
  }

  it('finds each line once, only within its id’s ranges, ids sharing their last four bytes told apart', () => {
    const chunk = chunkOf(['a-xx-0001 one', 'b-xx-0001 two', 'zzzz', 'a-xx-0001 b-xx-0001 both', 'xa-xx-0001 inside a longer id', 'a-xx-000 no'], 100, true);
    assert.deepEqual(searchIds(chunk, new Map([['a-xx-0001', [100, 105]]])), [100, 103, 104]);
    assert.deepEqual(searchIds(chunk, new Map([['b-xx-0001', [100, 102]]])), [101]);
    assert.deepEqual(
      searchIds(
        chunk,
        new Map([
          ['a-xx-0001', [102, 103]],
          ['b-xx-0001', [100, 100, 103, 105]],
        ]),
      ),
      [103],
    );
    assert.deepEqual(searchIds(chunk, new Map([['xx-0001', [100, 105]]])), [100, 101, 103, 104]);
  });

  it('finds an id at a line’s start and end, and not one byte short of it', () => {
    // The last line has no line end.
    const chunk = chunkOf(['12345678', 'x 12345678', '12345678 y', '1234567 no', '2345678x no', 'ab12345678cd'], 0, false);
    assert.deepEqual(searchIds(chunk, new Map([['12345678', [0, 5]]])), [0, 1, 2, 5]);
    // With a shorter id watched too (a shorter stride): the same lines.
    assert.deepEqual(searchIds(chunk, new Map([['12345678', [0, 5]], ['zzzzzz', [0, 5]]])), [0, 1, 2, 5]);
    assert.deepEqual(searchIds(chunk, new Map([['12345678', [3, 5]]])), [5]);
  });
});
