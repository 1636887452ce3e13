import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactDeep, type Redaction } from '../../../src/core/redact/apply';

describe('redactDeep (redact/apply.ts)', () => {
  it('returns what holds no secret as it is, and copies only the parts that change', () => {
    const clean = { a: [{ source: 'docs/a.md', reason: 'its budget of 1500 tokens was spent', tokens: 12 }], b: { c: null, d: true } };
    const found: Redaction[] = [];
    assert.equal(redactDeep(clean, found), clean);
    assert.equal(found.length, 0);
    const value = { keep: clean.a, list: ['ok', 'DB_PASS=hunter22', 'ok too'], nested: { n: 1, env: { line: 'API_KEY=sk9f8e7d6c5b4a3210' } } };
    const out = redactDeep(value, found);
    assert.notEqual(out, value);
    assert.equal(out.keep, value.keep, 'an unchanged part is shared');
    assert.deepEqual(out.list, ['ok', 'DB_PASS=[REDACTED:assigned-secret]', 'ok too']);
    assert.deepEqual(out.nested, { n: 1, env: { line: 'API_KEY=[REDACTED:assigned-secret]' } });
    assert.deepEqual(value.list, ['ok', 'DB_PASS=hunter22', 'ok too'], 'the input is not changed');
    assert.deepEqual(found.map((f) => f.rule), ['assigned-secret', 'assigned-secret']);
  });
});
