import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Assembly } from '../../../src/core/chain/assemble';
import { windowToFit } from '../../../src/core/chain/fit-window';
import { defaultPolicy } from '../../../src/core/policy';

/** A fake chain: below `fits` tokens of window the log is dropped (its 900 tokens in rejected), at or above it is sent. */
function chain(fits: number) {
  const tried: number[] = [];
  const assembleAt = (w: number): Assembly => {
    tried.push(w);
    const sent = w >= fits;
    return { blocks: sent ? [{ source: 'application.log' }] : [], manifest: { rejected: sent ? [] : [{ source: 'application.log', tokens: 900 }], indexed: [] } } as unknown as Assembly;
  };
  return { tried, assembleAt };
}
const policy = (window: number) => ({ ...defaultPolicy(), envelope: { ...defaultPolicy().envelope, window } });

describe('windowToFit: the window at which the dropped evidence is sent, found by assembling', () => {
  it('jumps by what is missing, then bisects down to the step', () => {
    const c = chain(7150);
    assert.equal(windowToFit({ policy: policy(6500), sources: ['application.log'], needed: 900, assembleAt: c.assembleAt }), 7200);
    assert.deepEqual(c.tried, [7400, 7000, 7200, 7100]);
  });

  it('goes up by the tokens still missing when the first guess is short', () => {
    const c = chain(9000);
    assert.equal(windowToFit({ policy: policy(6500), sources: ['application.log'], needed: 100, assembleAt: c.assembleAt }), 9000);
    assert.equal(c.tried[0], 6600);
    assert.equal(c.tried[1], 7500);
  });

  it('says nothing it did not verify: undefined when no probe sent it all', () => {
    const c = chain(1e9);
    assert.equal(windowToFit({ policy: policy(6500), sources: ['application.log'], needed: 900, assembleAt: c.assembleAt, probes: 3 }), undefined);
    assert.equal(c.tried.length, 3);
    assert.equal(windowToFit({ policy: policy(6500), sources: ['application.log'], needed: 900, assembleAt: c.assembleAt, stop: () => true }), undefined);
  });
});
