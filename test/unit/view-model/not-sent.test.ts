import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notSentOf } from '../../../src/view-model/not-sent';
import { traceRows } from '../../../src/view-model/trace-table';
import { manifestOf } from '../compare/fixture';

const m = manifestOf({
  selected: [
    { source: 'builtin:system', kind: 'system_instructions', reason: 'mandatory (system_instructions)', tokens: 113 },
    { source: 'application.log', kind: 'tool_result', reason: 'tool output, priority 100, trimmed', tokens: 695 },
    { source: '.context/session.jsonl#e23', kind: 'session_group', reason: 'recent session events, verbatim', tokens: 50 },
    { source: 'docs/adr/adr-012.md', kind: 'decision', reason: 'applicable decision (accepted)', tokens: 1112 },
  ],
  rejected: [
    { source: 'docs/adr/adr-008.md', kind: 'decision', reason: 'superseded by ADR-012', tokens: 592 },
    { source: '.context/session.jsonl#e17', kind: 'session_group', reason: 'session events omitted: dropped by ladder 2', tokens: 1036 },
  ],
  indexed: [{ source: 'docs/architecture.md', kind: 'document', reason: 'did not fit the budget (324 tokens left): in the index, available on demand', tokens: 6436 }],
  trimmed: [{ source: 'application.log', kind: 'tool_result', reason: 'kept 3 of 3 error templates', original_tokens: 1451, original_tokens_exact: true, tokens: 695, retained_lines: 8, original_lines: 45 }],
  offloaded: [{ source: 'build.log', kind: 'tool_result', reason: 'over 6 000 tokens', tokens: 9000, tokens_exact: true, path: '.context/offload/build.log' }],
  degraded: [{ source: 'application.log', kind: 'tool_result', reason: 'ladder 1: trimmed the largest tool result', tokens_before: 1451, tokens: 695, request_before: 4238, request_after: 3481 }],
  compacted: [{ source: '.context/session.jsonl', kind: 'session_summary', reason: 'folded into a structured summary', range: 'e01…e16', tokens: 773 }],
});

describe('panel: not sent', () => {
  it('lists ladder steps, rejected, indexed and what tool output left out, in that order, with exact or estimated figures', () => {
    assert.deepEqual(notSentOf(m), [
      { group: 'degraded', source: 'application.log', kind: 'tool_result', reason: 'ladder 1: trimmed the largest tool result', tokens: 756, exact: true },
      { group: 'rejected', source: 'docs/adr/adr-008.md', kind: 'decision', reason: 'superseded by ADR-012', tokens: 592, exact: false },
      { group: 'rejected', source: '.context/session.jsonl#e17', kind: 'session_group', reason: 'session events omitted: dropped by ladder 2', tokens: 1036, exact: false },
      { group: 'indexed', source: 'docs/architecture.md', kind: 'document', reason: 'did not fit the budget (324 tokens left): in the index, available on demand', tokens: 6436, exact: false },
      { group: 'tool_output', source: 'application.log', kind: 'tool_result', reason: 'kept 3 of 3 error templates', tokens: 756, exact: true },
      { group: 'tool_output', source: 'build.log', kind: 'tool_result', reason: 'offloaded whole to .context/offload/build.log: over 6 000 tokens', tokens: 9000, exact: true },
    ]);
  });

  it('an empty manifest has nothing not sent', () => {
    assert.deepEqual(notSentOf(manifestOf({})), []);
  });
});

describe('panel: trace table', () => {
  it('has the trace sections in order, each row with its verdict, figure and reason', () => {
    assert.deepEqual(
      traceRows(m).map((r) => [r.section, r.source, r.verdict, r.tokens, r.exact]),
      [
        ['Tool output', 'application.log', 'TRIMMED', 695, true],
        ['Tool output', 'build.log', 'OFFLOADED', 9000, true],
        ['Session', '.context/session.jsonl', 'SUMMARY', 773, true],
        ['Session', '.context/session.jsonl#e23', 'KEPT', 50, true],
        ['Session', '.context/session.jsonl#e17', 'REJECTED', 1036, false],
        ['Documents', 'docs/adr/adr-012.md', 'SELECTED', 1112, true],
        ['Documents', 'docs/adr/adr-008.md', 'REJECTED', 592, false],
        ['Documents', 'docs/architecture.md', 'INDEXED', 6436, false],
        ['Budget ladder', 'application.log', 'DEGRADED', 695, true],
      ],
    );
    assert.equal(traceRows(m)[0].detail, 'kept 3 of 3 error templates');
    assert.equal(traceRows(m)[1].detail, '→ .context/offload/build.log');
  });
});
