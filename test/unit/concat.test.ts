import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concat } from '../../src/core/concat';

describe('concat', () => {
  it('is the pieces joined, for none, one, empty and many pieces (a 3.4 M-character rope included)', () => {
    assert.equal(concat([]), '');
    assert.equal(concat(['']), '');
    assert.equal(concat(['a', '', 'é\u{1F600}', '\n\n']), 'aé\u{1F600}\n\n');
    const pieces = Array.from({ length: 800 }, (_, i) => `<document path="docs/note-${i}.md">\n${'x'.repeat(4200)}\n</document>${i % 2 ? '\n\n' : ''}`);
    const joined = pieces.join('');
    const rope = concat(pieces);
    assert.equal(rope.length, joined.length);
    assert.equal(rope.slice(0, 40), joined.slice(0, 40));
    assert.equal(rope, joined);
    assert.equal(Buffer.byteLength(rope), Buffer.byteLength(joined));
  });
});
