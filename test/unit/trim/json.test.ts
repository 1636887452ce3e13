import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readShape, renderShape } from '../../../src/core/trim/json-shape';
import { JsonSyntaxError } from '../../../src/core/trim/json-stream';
import { trimJson } from '../../../src/core/trim/json';
import { counter } from '../helpers';
import { lines, options, prng } from './fixtures';

/** A search API response: 300 pull requests with long bodies, nested users and labels, some merged. */
function pullRequests(n = 300): string {
  const rand = prng(11);
  const items = Array.from({ length: n }, (_, i) => ({
    number: 4000 + i,
    title: `Restore the CARD fallback for legacy terminals (${i})`,
    state: i % 4 === 0 ? 'open' : 'closed',
    user: { login: `dev${i % 9}`, id: 100 + (i % 9) },
    labels: Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, k) => ({ name: ['payments', 'legacy', 'api'][k] })),
    body: 'Restores the default payment method when the field is absent. '.repeat(6 + Math.floor(rand() * 4)),
    ...(i % 3 === 0 ? { merged_at: '2026-11-12T09:11:02Z' } : { merged_at: null }),
  }));
  return JSON.stringify({ total_count: n, incomplete_results: false, items }, null, 2);
}

describe('JSON payload trimming', () => {
  it('reads the shape in one pass: keys, types, optional keys, array lengths', () => {
    const shape = readShape(lines(pullRequests())(), 3);
    assert.equal(
      renderShape(shape.root),
      [
        '{',
        '  "total_count": number,',
        '  "incomplete_results": boolean,',
        '  "items": [300] of {',
        '    "number": number,',
        '    "title": string,',
        '    "state": string,',
        '    "user": {',
        '      "login": string,',
        '      "id": number',
        '    },',
        '    "labels": [1..3] of {',
        '      "name": string',
        '    },',
        '    "body": string,',
        '    "merged_at": string | null',
        '  }',
        '}',
      ].join('\n'),
    );
    assert.equal(shape.main?.path, '$.items');
    assert.equal(shape.main?.length, 300);
    assert.equal(shape.main?.records.length, 3);
  });

  it('keeps the shape and the first records, long strings clipped, within the budget', () => {
    const text = pullRequests();
    const out = trimJson(lines(text), options(700));
    const kept = out.text.split('\n');
    assert.ok(counter.count(out.text) <= 700);
    assert.equal(kept[0], `JSON, ${text.split('\n').length} lines, ${text.length} characters; 300 records in $.items`);
    assert.equal(kept[1], 'shape:');
    assert.ok(kept.includes('  "items": [300] of {'));
    const at = kept.findIndex((l) => /^first \d+ of 300 records \(\$\.items\):$/.test(l));
    assert.ok(at > 0);
    const first = JSON.parse(kept[at + 1]) as { number: number; body: string };
    assert.equal(first.number, 4000);
    assert.match(first.body, /…\(\+\d+ chars\)$/);
    assert.equal(out.retainedLines, kept.length - at - 1);
    assert.equal(out.format, 'json');
  });

  it('reads JSON Lines as one record per line', () => {
    const text = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: i, ok: i % 2 === 0, tags: ['a', 'b'].slice(0, i % 3) })).join('\n');
    const shape = readShape(lines(text)(), 2);
    assert.equal(shape.documents, 50);
    assert.equal(renderShape(shape.root), '{\n  "id": number,\n  "ok": boolean,\n  "tags": [0..2] of string\n}');
    assert.equal(shape.main?.length, 50);
    assert.deepEqual(shape.main?.records, [{ id: 0, ok: true, tags: [] }, { id: 1, ok: false, tags: ['a'] }]);
  });

  it('names the line and column of invalid JSON, and the trimmer falls back to head and tail', () => {
    assert.throws(() => readShape(['{"a": [1, 2}'], 1), (e: unknown) => e instanceof JsonSyntaxError && e.message === 'unexpected "}" at line 1, column 12');
    const out = trimJson(lines('{"a": 1,\n"b": tru\n}\n' + 'x\n'.repeat(300)), options(100, { headLines: 2, tailLines: 1 }));
    assert.match(out.note, /^not valid JSON \(invalid value "tru" at line 2, column \d+\): head and tail kept/);
  });

  it('reads a 3 MB string value without trouble (strings are capped as they are read)', () => {
    const shape = readShape([`{"blob": "${'y'.repeat(3_000_000)}", "n": 1}`], 1);
    assert.equal(renderShape(shape.root), '{\n  "blob": string,\n  "n": number\n}');
    assert.deepEqual(shape.main, undefined);
  });
});
