import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepWithin, recent } from '../../src/core/lru';

describe('lru', () => {
  it('a hit becomes the most recently used; a miss is undefined and changes nothing', () => {
    const m = new Map([['a', 1], ['b', 2], ['c', 3]]);
    assert.equal(recent(m, 'a'), 1);
    assert.deepEqual([...m.keys()], ['b', 'c', 'a']);
    assert.equal(recent(m, 'z'), undefined);
    assert.deepEqual([...m.keys()], ['b', 'c', 'a']);
  });

  it('past the bound, the least recently used go down to three quarters of it; within it nothing goes', () => {
    const m = new Map(Array.from({ length: 8 }, (_, i) => [i, i] as [number, number]));
    keepWithin(m, 8);
    assert.equal(m.size, 8);
    m.set(8, 8);
    keepWithin(m, 8);
    assert.deepEqual([...m.keys()], [3, 4, 5, 6, 7, 8]);
    const none = new Map([['x', 1]]);
    keepWithin(none, 0);
    assert.equal(none.size, 0);
  });
});
