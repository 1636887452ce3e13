import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { trimOptions } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { CHUNK } from '../../../src/core/trim/byte-lines';
import { RUN_LINES } from '../../../src/core/trim/line-kernel';
import { redactedFileLines } from '../../../src/core/trim/lines';
import { trimLog } from '../../../src/core/trim/log';
import { useLineKernel } from '../../../src/core/trim/log-bytes';
import type { TrimOutput } from '../../../src/core/trim/types';
import { counter } from '../helpers';

/**
 * Hostile logs through the line kernel (line-kernel.wat) and its JS fallback: each is trimmed with the kernel on
 * every file and with it off. Neither may throw, both must give the same text, the text must stay within the
 * budget, and the error the log holds must still be found.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-redteam-kernel-'));
after(() => {
  useLineKernel('auto');
  fs.rmSync(dir, { recursive: true, force: true });
});

const BUDGET = 1500;
const INFO = (i: number) => `2026-11-12T08:00:${String(i % 60).padStart(2, '0')}.026Z  INFO 4821 --- [exec-${i % 8}] c.a.p.PaymentService : payment ${i} created`;
const ERROR = '2026-11-12T08:01:00.000Z ERROR 4821 --- [exec-3] c.a.p.PaymentController : paymentMethod is required (order 9F3A)';

function write(name: string, bytes: Buffer | string): string {
  const abs = path.join(dir, name);
  fs.writeFileSync(abs, bytes);
  return abs;
}

function infoLines(n: number, from = 0): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += INFO(i) + '\n';
  return s;
}

/** The trim with the kernel on every file, and without it: the same, bounded. */
function bothWays(abs: string): TrimOutput {
  const options = trimOptions(defaultPolicy(), counter, BUDGET, 'logs/app.log');
  const outs = (['always', 'never'] as const).map((mode) => {
    useLineKernel(mode);
    try {
      return trimLog(redactedFileLines(abs), options);
    } finally {
      useLineKernel('auto');
    }
  });
  assert.equal(outs[0].text, outs[1].text, 'the kernel and the fallback give the same text');
  assert.ok(counter.count(outs[0].text) <= BUDGET, `within the budget: ${counter.count(outs[0].text)} tokens`);
  return outs[0];
}

describe('red team: hostile logs through the line kernel', () => {
  it('NUL bytes in info lines and in the error line: no crash, the error is found', () => {
    const nul = infoLines(3000).replace(/created/g, 'cre\0ated') + ERROR.replace('is required', 'is\0required') + '\n' + infoLines(3000, 3000);
    const out = bothWays(write('nul.log', nul));
    assert.match(out.text, /paymentMethod is.required/);
    assert.ok((out.templates?.errors ?? 0) >= 1, out.note);
  });

  it('one 50 MB line with no line end, an error at its start: bounded output, the error is found', () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 'x');
    huge.write(ERROR + ' ', 0);
    const out = bothWays(write('huge-line.log', huge));
    assert.match(out.text, /paymentMethod is required/);
    assert.ok(out.text.length < 20_000, `${out.text.length} characters`);
  });

  // CR alone is not a line end for the line reader (src/core/sources/line-reader.ts): such a log is one long line,
  // clipped to its head and tail. Kept to what holds today: no crash, bounded, the same either way, and an error at
  // the head still found. An error in the middle of a CR-only log is not (a known limit).
  it('CR-only line ends (old Mac): no crash, bounded, the same either way; an error at the head is found', () => {
    const cr = (ERROR + '\n' + infoLines(10_000)).replace(/\n/g, '\r');
    const out = bothWays(write('cr.log', cr));
    assert.match(out.text, /paymentMethod is required/);
    assert.ok(out.text.length < 20_000, `${out.text.length} characters`);
  });

  it('invalid UTF-8 (lone continuation bytes, overlong forms, 0xFF) around and inside the error: no crash, the error is found', () => {
    const bad = Buffer.from([0x80, 0xbf, 0xc0, 0xaf, 0xe0, 0x80, 0xaf, 0xff, 0xfe, 0xed, 0xa0, 0x80]);
    const parts: Buffer[] = [];
    for (let i = 0; i < 4000; i++) parts.push(Buffer.from(INFO(i).slice(0, 30)), bad, Buffer.from(INFO(i).slice(30) + '\n'));
    parts.push(Buffer.from(ERROR.slice(0, 40)), bad, Buffer.from(ERROR.slice(40) + '\n'), Buffer.from(infoLines(4000, 4000)));
    const out = bothWays(write('utf8.log', Buffer.concat(parts)));
    assert.match(out.text, /paymentMethod is required/);
  });

  for (const delta of [-1, 0, 1]) {
    it(`a file of 256 KiB ${delta < 0 ? '− 1 byte' : delta > 0 ? '+ 1 byte' : 'exactly'} (the kernel's threshold), the error its last line: same text either way, the error is found`, () => {
      const size = 256 * 1024 + delta;
      const tail = ERROR + '\n';
      let body = '';
      for (let i = 0; body.length + INFO(i).length + 1 + tail.length + 2 <= size; i++) body += INFO(i) + '\n';
      body += 'x'.repeat(size - body.length - tail.length - 1) + '\n';
      const bytes = Buffer.from(body + tail);
      assert.equal(bytes.length, size);
      const out = bothWays(write(`threshold${delta}.log`, bytes));
      assert.match(out.text, /paymentMethod is required/);
    });
  }

  it('one line of exactly 256 KiB holding the error, between info lines: bounded, the error is found', () => {
    const line = (ERROR + ' ').padEnd(256 * 1024, 'y');
    const out = bothWays(write('line-256k.log', infoLines(2000) + line + '\n' + infoLines(2000, 2000)));
    assert.match(out.text, /paymentMethod is required/);
    assert.ok(out.text.length < 20_000);
  });

  it(`chunk boundaries: the error line straddles the ${CHUNK / 1024 / 1024} MiB chunk end, and one follows a run of exactly ${RUN_LINES} info lines`, () => {
    const parts = [infoLines(RUN_LINES), ERROR.replace('order 9F3A', 'order RUN1') + '\n'];
    let length = parts[0].length + parts[1].length;
    let i = RUN_LINES;
    while (length + INFO(i).length + 1 + 2 <= CHUNK - 40) {
      parts.push(INFO(i++) + '\n');
      length += parts[parts.length - 1].length;
    }
    parts.push('x'.repeat(CHUNK - 40 - length - 1) + '\n');
    const head = parts.join('');
    const bytes = Buffer.from(head + ERROR + '\n' + infoLines(20_000, i));
    assert.ok(bytes.indexOf(ERROR) < CHUNK && bytes.indexOf(ERROR) + ERROR.length > CHUNK, 'the error line crosses the chunk end');
    const out = bothWays(write('chunks.log', bytes));
    assert.match(out.text, /paymentMethod is required \(order 9F3A\)/);
    assert.match(out.text, /paymentMethod is required \(order RUN1\)/);
  });
});
