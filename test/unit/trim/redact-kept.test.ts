import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { trimOptions } from '../../../src/core/chain/trim';
import { defaultPolicy } from '../../../src/core/policy';
import { redactEach, redactLine, redactLines } from '../../../src/core/redact/apply';
import { fileLines } from '../../../src/core/sources/line-reader';
import { redactedFileLines, STREAM_CHUNK_BYTES } from '../../../src/core/trim/lines';
import { trimLog } from '../../../src/core/trim/log';
import { scanFileBytes, useLineKernel } from '../../../src/core/trim/log-bytes';
import { CORR_RADIUS, ErrorScanner } from '../../../src/core/trim/log-scan';
import { counter } from '../helpers';

/**
 * Issue 30: the log scan redacts only what it keeps. Pass 1 gives the scanner raw lines; the scanner redacts the
 * error and warning lines it keeps something of, and never scans the lines it drops (counted through the redactor
 * it is given, not timed). Pass 2 reads back only the lines it pools, redacted.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-redact-kept-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEPT_SECRET = 'AKIA' + 'Q3EGRFKZ7XNMTB5W';
const DROPPED_SECRET = 'ghp_' + 'Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c';

/** An access log (no level column: every line decoded) with one dropped line holding a secret, far from the error. */
function accessLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const ts = `12/Nov/2026:08:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0000`;
    if (i === 500) lines.push(`10.0.0.7 - - [${ts}] "GET /oauth/callback?token=${DROPPED_SECRET} HTTP/1.1" 200 512 "-" "curl/8.5.0"`);
    else if (i === 2500) lines.push(`2026-11-12T08:41:40Z ERROR upstream rejected key ${KEPT_SECRET} for merchant m-42`);
    else if (i === 2600) lines.push('2026-11-12T08:43:20Z WARN upstream slow: 2300 ms');
    else lines.push(`10.0.${i % 256}.${i % 7} - - [${ts}] "GET /api/v1/items/${i} HTTP/1.1" 200 ${100 + (i % 900)} "-" "curl/8.5.0"`);
  }
  return lines.join('\n') + '\n';
}

describe('the log scan redacts only what it keeps', () => {
  for (const kernel of ['always', 'never'] as const) {
    it(`pass 1 scans the error and warning lines for secrets, never a dropped line (line kernel: ${kernel})`, () => {
      const abs = path.join(dir, `access-${kernel}.log`);
      fs.writeFileSync(abs, accessLog());
      const scanned: string[] = [];
      const scanner = new ErrorScanner((line) => {
        scanned.push(line);
        return redactLine(line);
      });
      useLineKernel(kernel);
      try {
        assert.ok(scanFileBytes(abs, scanner, CORR_RADIUS), 'the byte path read the file');
      } finally {
        useLineKernel('auto');
      }
      assert.deepEqual(scanned, [`2026-11-12T08:41:40Z ERROR upstream rejected key ${KEPT_SECRET} for merchant m-42`, '2026-11-12T08:43:20Z WARN upstream slow: 2300 ms']);
      const scan = scanner.result();
      assert.equal(scan.total, 3000);
      assert.deepEqual(
        scan.groups.map((g) => [g.severity, g.sample]),
        [
          ['error', 'upstream rejected key [REDACTED:aws-access-key] for merchant m-42'],
          ['warn', 'upstream slow: 2300 ms'],
        ],
      );
    });
  }

  it('the trimmed log holds the kept line redacted and neither secret, the same as the streamed path', () => {
    const abs = path.join(dir, 'access.log');
    fs.writeFileSync(abs, accessLog());
    const options = trimOptions(defaultPolicy(), counter, 1500, 'logs/access.log');
    const fast = trimLog(redactedFileLines(abs), options);
    const slow = trimLog(redactLines(() => fileLines(abs, STREAM_CHUNK_BYTES)), options);
    assert.deepEqual(fast, slow);
    assert.ok(fast.text.includes(`2026-11-12T08:41:40Z ERROR upstream rejected key [REDACTED:aws-access-key] for merchant m-42`), fast.text);
    assert.ok(!fast.text.includes(KEPT_SECRET) && !fast.text.includes(DROPPED_SECRET));
  });
});

describe('redactEach', () => {
  it('redacts each line as redactLine does, with one pre-check per batch (secrets, non-ASCII, empty lines, over a batch)', () => {
    const samples = [
      `key ${KEPT_SECRET} here`,
      `token=${DROPPED_SECRET}`,
      'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789',
      'password: "hunter2-Xy9"',
      'plain line without any hint',
      '',
      'K\u212aLVIN sign lowers to k: kelvin key=Zx81kd9Qw2',
      'café 日本 postgres://admin:s3cr3tPassw0rd@db.internal:5432/app',
    ];
    const lines = Array.from({ length: 5000 }, (_, i) => samples[(i * 7) % samples.length] + (i % 3 === 0 ? ` #${i}` : ''));
    const expected = lines.map(redactLine);
    assert.ok(expected.filter((l, i) => l !== lines[i]).length > 2000, 'most sample lines hold a secret');
    assert.deepEqual(redactEach([...lines]), expected);
  });
});
