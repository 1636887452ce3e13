import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextEngine } from '../../../src/core/engine';
import { diskHost } from '../../../src/host/disk';
import { EXAMPLE } from '../helpers';

/**
 * One set of numbers: the same inputs give the same request, whatever the engine counted before. A bounded count
 * past the room depends on what earlier calls counted exactly (a larger window counts more blocks whole), so fill
 * must not let it choose what is listed or give the index its figures.
 */
describe('the same inputs give the same request after other windows', () => {
  const engine = new ContextEngine(diskHost, EXAMPLE);
  const at = (max: number) => {
    const answer = engine.tools.assembleContext({ task: 'ticket.md', max_input: max });
    assert.equal(answer.isError, false, answer.text);
    const { created_at: _, ...manifest } = answer.manifest!;
    return { text: answer.text, manifest };
  };

  it('at 6 500 tokens: the first call, and again after one at 13 500, send the same bytes with the same manifest', () => {
    const first = at(6500);
    assert.ok(first.manifest.indexed.length > 0, 'something did not fit: the case this is about');
    const wide = at(13_500);
    assert.notDeepEqual(wide.manifest.budget, first.manifest.budget);
    const again = at(6500);
    assert.deepEqual(again.manifest, first.manifest);
    assert.equal(again.text, first.text);
  });
});
