import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { redact, redactLines } from '../../../src/core/redact/apply';
import { hintedLines, HINT_LOWER } from '../../../src/core/redact/prefilter';
import { HINT } from '../../../src/core/redact/rules';
import { REPO } from '../helpers';

const DIR = path.join(REPO, 'test', 'fixtures', 'secrets');
const rows = (file: string) =>
  fs
    .readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
const SECRET_LINES = rows('must-redact.tsv').map((l) => l.split('\t')[2]);
const CODE = rows('must-keep.txt');
const INFO = (i: number) => `2026-11-12T10:00:00.000Z  INFO 4821 --- [exec-${i % 20}] c.a.p.api.PaymentController : [corr=${i}] Payment created amount=${i % 500}.00 EUR`;

describe('the batched secret pre-check (redact/prefilter.ts)', () => {
  it('is HINT in lower case, with no escape whose meaning lower case would change', () => {
    assert.equal(HINT_LOWER.source, HINT.source.toLowerCase());
    assert.doesNotMatch(HINT.source, /\\[A-Za-z]/);
  });

  it('flags exactly the lines HINT flags, on the secret corpus, code that names secrets and plain log lines', () => {
    const batch = [...SECRET_LINES, ...CODE, '', ...Array.from({ length: 50 }, (_, i) => INFO(i)), 'TOKEN at the start', 'ends with a Key'];
    const flags = [...hintedLines(batch)];
    assert.deepEqual(flags, batch.map((l) => (HINT.test(l) ? 1 : 0)));
    assert.ok(flags.filter((f) => f === 0).length >= 50 && flags.filter((f) => f === 1).length >= SECRET_LINES.length);
  });

  it('falls back to line by line when lower case changes a batch\'s length, and may flag more than HINT, never less', () => {
    // U+0130 (İ) lower-cases to two characters; U+212A (Kelvin sign) lower-cases to an ASCII k.
    assert.deepEqual([...hintedLines(['İstanbul', 'api_key=1', 'plain'])], [0, 1, 0]);
    assert.deepEqual([...hintedLines(['\u212Aey only', 'plain'])], [1, 0]);
    assert.equal(HINT.test('\u212Aey only'), false);
    assert.deepEqual(redact('\u212Aey only'), { text: '\u212Aey only', found: [] }, 'a flagged line is still judged by the full pass');
  });

  it('redactLines gives the same lines as redacting each line, across batch boundaries, key blocks included', () => {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(i % 97 === 0 ? SECRET_LINES[i % SECRET_LINES.length] : i % 89 === 0 ? CODE[i % CODE.length] : INFO(i));
    // A private key block across the first batch boundary (2 048 lines).
    lines.splice(2040, 0, 'before -----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA7b', 'Zm9vYmFyYmF6cXV4', '-----END RSA PRIVATE KEY----- after');
    const got = [...redactLines(() => lines)()];
    const want = lines.filter((_, i) => i < 2041 || i > 2042).map((l, i) => (i === 2040 ? 'before [REDACTED:private-key…]' : i === 2041 ? '[REDACTED:private-key] after' : redact(l).text));
    assert.equal(got.length, want.length);
    assert.deepEqual(got, want);
    assert.ok(got.filter((l) => l.includes('[REDACTED:')).length > 40);
  });
});
