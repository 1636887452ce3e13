import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsSecret, MEMO_MIN, redact, redactionMemo } from '../../../src/core/redact/apply';
import { cheapHash, TextMemo } from '../../../src/core/redact/memo';

const TOKEN = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const filler = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

describe('redaction memo (redact/memo.ts)', () => {
  it('serves an unchanged text from the memo with the same result, and a copy the caller may change', () => {
    redactionMemo.clear();
    const text = `${filler(600)}\nconst t = "${TOKEN}";\n${filler(600)}`;
    const first = redact(text);
    assert.deepEqual(first.found, [{ rule: 'github-token', line: 2 }]);
    assert.deepEqual([redactionMemo.hits, redactionMemo.misses], [0, 1]);
    first.found.push({ rule: 'bogus', line: 9 });
    first.found[0].line = 7;
    const second = redact(text);
    assert.deepEqual([redactionMemo.hits, redactionMemo.misses], [1, 1]);
    assert.equal(second.text, first.text);
    assert.deepEqual(second.found, [{ rule: 'github-token', line: 2 }]);
    assert.equal(holdsSecret(text), true);
    assert.deepEqual([redactionMemo.hits, redactionMemo.misses], [2, 1], 'holdsSecret reads the memo too');
  });

  it('does not remember texts shorter than MEMO_MIN', () => {
    redactionMemo.clear();
    const line = `token=${TOKEN}`;
    assert.ok(line.length < MEMO_MIN);
    redact(line);
    redact(line);
    assert.deepEqual([redactionMemo.size, redactionMemo.hits, redactionMemo.misses], [0, 0, 0]);
  });

  it('never serves the result of another text that has the same hash and length', () => {
    redactionMemo.clear();
    const head = filler(5000);
    const a = `${head} ${TOKEN} ${filler(5000)}`;
    const at = head.length + 1;
    // Find a character of the token's prefix the sampled hash does not see, and break the token there.
    const i = [0, 1, 2, 3].map((k) => at + k).find((p) => cheapHash(a.slice(0, p) + 'x' + a.slice(p + 1)) === cheapHash(a));
    assert.notEqual(i, undefined, 'the sampled hash skips one of the four prefix characters');
    const b = a.slice(0, i) + 'x' + a.slice(i! + 1);
    assert.equal(b.length, a.length);
    assert.equal(redact(a).found.length, 1);
    assert.deepEqual(redact(b), { text: b, found: [] });
    assert.deepEqual(redact(a).found, [{ rule: 'github-token', line: 1 }]);
    assert.equal(redactionMemo.hits, 0, 'each lookup found the other text under the key and scanned again');
  });
});

describe('TextMemo', () => {
  it('evicts the least recently used entry beyond its entry bound', () => {
    const m = new TextMemo<number>(2, 1000);
    m.set('one', 1);
    m.set('two', 2);
    assert.equal(m.get('one'), 1);
    m.set('three', 3);
    assert.deepEqual([m.get('two'), m.get('one'), m.get('three'), m.size], [undefined, 1, 3, 2]);
  });

  it('evicts the oldest entries beyond its character bound and refuses a text over it', () => {
    const m = new TextMemo<number>(10, 10);
    m.set('aaaa', 1);
    m.set('bbbb', 2);
    m.set('cccc', 3);
    assert.deepEqual([m.get('aaaa'), m.get('bbbb'), m.get('cccc'), m.heldChars], [undefined, 2, 3, 8]);
    m.set('x'.repeat(11), 4);
    assert.deepEqual([m.get('x'.repeat(11)), m.size, m.heldChars], [undefined, 2, 8]);
  });

  it('replaces an entry set again under the same text', () => {
    const m = new TextMemo<number>(10, 100);
    m.set('same', 1);
    m.set('same', 2);
    assert.deepEqual([m.get('same'), m.size, m.heldChars], [2, 1, 4]);
  });
});
