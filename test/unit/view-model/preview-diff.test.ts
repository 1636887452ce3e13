import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffPreviews } from '../../../src/view-model/preview-diff';

const b = (kind: string, source: string, tokens: number, text = `${source}@${tokens}`) => ({ kind, source, tokens, text });

describe('compare with previous preview', () => {
  it('names blocks added, removed and changed with token deltas, in the new order then the removed ones', () => {
    const before = { final: 4000, blocks: [b('system_instructions', 'builtin:system', 113), b('document', 'docs/a.md', 500), b('tool_result', 'app.log', 1451), b('current_task', 'ticket.md', 365)] };
    const after = { final: 4361, blocks: [b('system_instructions', 'builtin:system', 113), b('pinned', 'docs/runbook.md#L1-L8', 120), b('tool_result', 'app.log', 695), b('current_task', 'ticket.md', 365, 'other words')] };
    const d = diffPreviews(before, after);
    assert.deepEqual(d.changes, [
      { change: 'added', kind: 'pinned', source: 'docs/runbook.md#L1-L8', after: 120, delta: 120 },
      { change: 'changed', kind: 'tool_result', source: 'app.log', before: 1451, after: 695, delta: -756, what: 'text and tokens' },
      { change: 'changed', kind: 'current_task', source: 'ticket.md', before: 365, after: 365, delta: 0, what: 'text' },
      { change: 'removed', kind: 'document', source: 'docs/a.md', before: 500, delta: -500 },
    ]);
    assert.equal(d.same, 1);
    assert.equal(d.finalBefore, 4000);
    assert.equal(d.finalAfter, 4361);
  });

  it('pairs repeated kind+source in order and reports an extra one as added', () => {
    const d = diffPreviews({ blocks: [b('session_group', 's#e1', 10)] }, { blocks: [b('session_group', 's#e1', 10), b('session_group', 's#e1', 10)] });
    assert.deepEqual(d.changes.map((c) => c.change), ['added']);
    assert.equal(d.same, 1);
  });

  it('identical previews differ in nothing', () => {
    const blocks = [b('document', 'x.md', 3)];
    assert.deepEqual(diffPreviews({ blocks, final: 3 }, { blocks, final: 3 }), { changes: [], same: 1, finalBefore: 3, finalAfter: 3 });
  });
});
