import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitLines, shrink } from '../../../src/vscode/chat/fit';

/** One token per word: easy to reason about exactly. */
const words = async (t: string) => t.split(/\s+/).filter(Boolean).length;
const notice = (k: number, n: number) => `[${n - k} more]`;

describe('fitting a tool result into the caller budget', () => {
  const lines = ['header two', 'a b', 'c d', 'e f', 'g h'];

  it('returns the whole text when it fits', async () => {
    assert.deepEqual(await fitLines(lines, 10, words, notice, 'no'), { text: lines.join('\n'), tokens: 10, cut: false });
  });

  it('keeps the header and the longest head that fits with its notice', async () => {
    // header 2 + 2 lines × 2 + notice 2 = 8
    assert.deepEqual(await fitLines(lines, 8, words, notice, 'no'), { text: 'header two\na b\nc d\n[2 more]', tokens: 8, cut: true });
  });

  it('answers with the refusal alone when not even the header and the notice fit', async () => {
    assert.deepEqual(await fitLines(lines, 3, words, notice, 'does not fit'), { text: 'does not fit', tokens: 3, cut: true });
  });

  it('shrinks the envelope in proportion, always below the last try', () => {
    assert.equal(shrink(1000, 2000, 1000), 450);
    assert.equal(shrink(1000, 1001, 1000), 899);
    assert.equal(shrink(10, 10, 10), 9);
  });
});
