import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateMiner, templateText } from '../../../src/core/trim/templates';

describe('templates: a different word is a different template (Loghub BGL)', () => {
  it('program interrupt: privileged / illegal / trap instruction are three templates', () => {
    const miner = new TemplateMiner();
    const ids = ['program interrupt: privileged instruction...0', 'program interrupt: illegal instruction......0', 'program interrupt: trap instruction.........0', 'program interrupt: illegal instruction......1'].map((m) => miner.add(m)!.id);
    assert.deepEqual(ids, [0, 1, 2, 1]);
    assert.equal(templateText(miner.clusters[1]), 'program interrupt: illegal <*>');
  });

  it('a variable name in a longer message still merges (user names, hosts)', () => {
    const miner = new TemplateMiner();
    const a = miner.add('Failed password for root from 10.0.0.1 port 22 ssh2')!;
    const b = miner.add('Failed password for admin from 10.0.0.2 port 22 ssh2')!;
    assert.equal(a.id, b.id);
    assert.equal(templateText(a), 'Failed password for <*> from <*> port <*> <*>');
  });
});
