import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { droppedBanner, droppedEvidence, isDroppedToFit } from '../../../src/view-model/dropped';

const rejected = [
  { source: 'docs/adr/adr-008.md', kind: 'decision' as const, reason: 'superseded by ADR-012', tokens: 592 },
  { source: 'docs/adr/adr-012.md', kind: 'decision' as const, reason: 'not in this request: did not fit the budget (46 tokens left)', tokens: 1112, limit: 'budget' },
  { source: 'application.log', kind: 'tool_result' as const, reason: 'not sent: over the budget (46 tokens left, 85 needed even trimmed)', tokens: 85, limit: 'budget' },
  { source: '.context/session.jsonl#e19', kind: 'session_group' as const, reason: 'session events omitted: at least 141 tokens needed, 46 left', tokens: 141 },
];
const indexed = [
  { source: 'src/main/java/PaymentController.java', kind: 'source_code' as const, reason: 'did not fit the budget (46 tokens left): in the index, available on demand', tokens: 900, limit: 'budget' },
  { source: 'docs/runbook.md', kind: 'document' as const, reason: 'below the relevance threshold 30%', tokens: 400 },
  { source: 'docs/architecture.md', kind: 'document' as const, reason: 'did not fit the budget (151 tokens left): in the index, available on demand', tokens: 6436, limit: 'budget' },
];

describe('view model: dropped to fit', () => {
  it('tells a drop by the budget from a superseded or irrelevant one', () => {
    assert.deepEqual(rejected.map(isDroppedToFit), [false, true, true, true]);
    assert.deepEqual(indexed.map(isDroppedToFit), [true, false, true]);
  });

  it('lists the key evidence once, tool output first, then source files and decisions; session events and documents are not key evidence', () => {
    assert.deepEqual(droppedEvidence({ rejected, indexed }), [
      { source: 'application.log', kind: 'tool_result', tokens: 85, indexed: false },
      { source: 'src/main/java/PaymentController.java', kind: 'source_code', tokens: 900, indexed: true },
      { source: 'docs/adr/adr-012.md', kind: 'decision', tokens: 1112, indexed: false },
    ]);
  });

  it('says what was dropped and the window that would hold it, or only what to do when none was found', () => {
    const items = droppedEvidence({ rejected, indexed });
    assert.equal(droppedBanner(items, 8200), 'Dropped to fit: application.log (tool output), PaymentController.java, adr-012.md (decision) — raise the window to 8\u202f200 or exclude a block you do not need.');
    assert.equal(droppedBanner(items, undefined, 1), 'Dropped to fit: application.log (tool output) and 2 more — raise the window or exclude a block you do not need.');
  });
});
