import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Lru } from '../../src/core/lru';

describe('lru', () => {
  it('a hit becomes the most recently used; a miss, or `has`, changes nothing', () => {
    const m = new Lru<string, number>(8);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) m.set(k, v);
    assert.equal(m.get('a'), 1);
    assert.deepEqual(m.keys(), ['b', 'c', 'a']);
    assert.equal(m.get('z'), undefined);
    assert.equal(m.has('b'), true);
    assert.deepEqual(m.keys(), ['b', 'c', 'a']);
    m.set('b', 20);
    assert.deepEqual(m.keys(), ['c', 'a', 'b']);
    assert.equal(m.get('b'), 20);
    assert.equal(m.size, 3);
  });

  it('past the bound, the least recently used go down to three quarters of it; within it nothing goes', () => {
    const m = new Lru<number, number>(8);
    for (let i = 0; i < 8; i++) m.set(i, i);
    assert.equal(m.size, 8);
    m.get(0);
    m.set(8, 8);
    assert.deepEqual(m.keys(), [4, 5, 6, 7, 0, 8]);
    const none = new Lru<string, number>(0);
    none.set('x', 1);
    assert.equal(none.size, 0);
    assert.equal(none.get('x'), undefined);
  });

  it('keeps what a Map moved to its newest end on every hit would keep, for any sequence of uses', () => {
    // The reference: the Map-based LRU this replaced (a hit deleted and set its key again; past the bound, the oldest
    // keys went down to three quarters of it).
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 2, max: 200 }), fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 1500, size: 'max' }), (bound, keys, uses) => {
        const ops = uses.map(([isSet, k]) => [isSet, k % keys] as const);
        const lru = new Lru<number, number>(bound);
        const ref = new Map<number, number>();
        for (const [isSet, k] of ops) {
          if (isSet) {
            ref.delete(k);
            ref.set(k, k);
            if (ref.size > bound) {
              let n = ref.size - bound + (bound >> 2);
              for (const key of ref.keys()) if (n-- > 0) ref.delete(key);
            }
            lru.set(k, k);
          } else {
            const hit = ref.get(k);
            if (hit !== undefined) {
              ref.delete(k);
              ref.set(k, hit);
            }
            assert.equal(lru.get(k), hit);
          }
        }
        assert.deepEqual(lru.keys(), [...ref.keys()]);
      }),
      { numRuns: 400 },
    );
  });
});
