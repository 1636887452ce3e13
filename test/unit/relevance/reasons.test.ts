import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRelevanceReason } from '../../../src/core/relevance/reasons';

describe('relevance reasons are true of the file', () => {
  it('"mentions X" holds only when X is in the file by the index\'s tokenisation', () => {
    const text = '# Lock carts\n\nWe call releaseCartLock in Redis; the license is MIT.';
    assert.deepEqual(checkRelevanceReason('relevant: mentions release, lock, licence (rank 1 of 3, score 1)', text), { checked: 3, wrong: [] });
    assert.deepEqual(checkRelevanceReason('relevant: next to a.ts; mentions checkout, adding and 2 more (rank 2 of 3, score 0.5)', text), { checked: 2, wrong: ['mentions checkout', 'mentions adding'] });
  });

  it('"applicable decision (accepted)" needs a file that declares acceptance; "status unknown" claims nothing', () => {
    assert.deepEqual(checkRelevanceReason('applicable decision (accepted); relevant: mentions redis (rank 1 of 1, score 1)', '# X\n\nWe use Redis.').wrong, ['applicable decision (accepted)']);
    assert.deepEqual(checkRelevanceReason('applicable decision (accepted)', '## Status\n\n✅ Accepted\n').wrong, []);
    assert.deepEqual(checkRelevanceReason('applicable decision (status unknown)', '# X').wrong, []);
  });
});
