import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPanelAction, isPanelMessage } from '../../../src/vscode/protocol';

describe('panel protocol guard', () => {
  it('accepts every well-formed message and checks each field', () => {
    assert.equal(isPanelMessage({ type: 'ready' }), true);
    assert.equal(isPanelMessage({ type: 'preview', task: 'x' }), true);
    assert.equal(isPanelMessage({ type: 'preview' }), false);
    assert.equal(isPanelMessage({ type: 'session', action: 'undo' }), true);
    assert.equal(isPanelMessage({ type: 'session', action: 'rm -rf' }), false);
    assert.equal(isPanelMessage({ type: 'setPolicy', policyPath: 3 }), false);
  });

  it('Open at a line takes a whole line number from 1; Fix names a file', () => {
    assert.equal(isPanelMessage({ type: 'openSource', source: '.context/policy.yaml' }), true);
    assert.equal(isPanelMessage({ type: 'openSource', source: '.context/policy.yaml', line: 4 }), true);
    for (const line of [0, -1, 2.5, '4', Number.NaN]) assert.equal(isPanelMessage({ type: 'openSource', source: 'a', line }), false, String(line));
    assert.equal(isPanelMessage({ type: 'applyFix', file: '.context/policy.yaml' }), true);
    assert.equal(isPanelMessage({ type: 'applyFix' }), false);
  });

  it('rejects unknown types, inherited names and non-objects', () => {
    for (const v of [null, 'ready', 3, {}, { type: 'toString' }, { type: 'constructor' }, { type: 'nope' }]) assert.equal(isPanelMessage(v), false, JSON.stringify(v));
  });

  it('checks the per-block actions, with an optional block id', () => {
    assert.equal(isPanelAction({ type: 'blockAction', action: 'include', source: 'docs/a.md' }), true);
    assert.equal(isPanelAction({ type: 'blockAction', action: 'copy', source: 'a', blockId: 'b1' }), true);
    assert.equal(isPanelAction({ type: 'blockAction', action: 'copy', source: 'a', blockId: 7 }), false);
    assert.equal(isPanelAction({ type: 'blockAction', action: 'delete', source: 'a' }), false);
    assert.equal(isPanelAction({ type: 'unpin', pinId: 'p' }), true);
    assert.equal(isPanelAction({ type: 'unpin' }), false);
    assert.equal(isPanelMessage({ type: 'unpin', pinId: 'p' }), false);
  });
});
