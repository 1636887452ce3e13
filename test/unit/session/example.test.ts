import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { rangeOf, type SummaryRecord } from '../../../src/core/session/summary-store';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { EXAMPLE } from '../helpers';
import { EXAMPLE_SESSION, faithfulSummary, foldedExampleEvents } from './fixtures';

const NOW = () => new Date('2026-11-12T10:20:00Z');
const sha = () => createHash('sha256').update(fs.readFileSync(EXAMPLE_SESSION)).digest('hex');
const stored = (summary = faithfulSummary()): SummaryRecord[] => [
  { id: 's1', action: 'compact', created_at: NOW().toISOString(), producer: 'model:gpt-4o', covers: rangeOf(foldedExampleEvents()), summary },
];
const sessionBlock = (trace: string) => trace.slice(trace.indexOf('SESSION\n'), trace.indexOf('\nDOCUMENTS'));

describe('the example\'s stored session (examples/payment-incident)', () => {
  const before = sha();
  const snapshot = loadSnapshot({ root: EXAMPLE, task: path.join(EXAMPLE, 'ticket.md') });
  const plain = assemble(snapshot, { now: NOW });

  it('replays the most recent groups raw and the older ones compacted; the trace\'s SESSION block shows the four counts', () => {
    assert.equal(sessionBlock(plain.trace), [
      'SESSION',
      '  24 stored events',
      '   8 recent events kept raw',
      '  16 old events compacted',
      '   0 events omitted',
      '  summary of e01…e16: 2\u202f144 → 773 tokens, extractive fallback (no model configured): sentences copied from the events, not rewritten',
      '',
    ].join('\n'));
    assert.deepEqual(plain.manifest.session, {
      stored: 24, kept_raw: 8, compacted: 16, omitted: 0, store: { kind: 'workspace', path: '.context/session.jsonl' },
      summary: {
        status: 'accepted', producer: 'extractive', range: 'e01…e16', events: 16, groups: 12,
        label: 'extractive fallback (no model configured): sentences copied from the events, not rewritten', tokens_before: 2144, tokens_after: 773,
      },
    });
  });

  it('sends the recent groups as messages, each tool result right after its call, and the summary in the context', () => {
    const roles = plain.neutral.messages.map((m) => `${m.role}${m.toolCalls ? `(${m.toolCalls.map((c) => c.id).join(',')})` : ''}${m.toolCallId ? `[${m.toolCallId}]` : ''}`);
    assert.deepEqual(roles, ['user', 'assistant(c5)', 'tool[c5]', 'assistant', 'assistant(c6)', 'tool[c6]', 'assistant', 'user', 'assistant', 'user']);
    const context = plain.neutral.messages[0].content;
    assert.ok(context.includes('<session-summary source=".context/session.jsonl#summary" trust="session">\n# Summary of session events e01…e16 (16 events), extractive fallback'));
    assert.ok(!plain.neutral.messages.some((m) => m.content.startsWith('<turn ') && m.content.includes('\nForget TRACE in prod')), 'e08 is folded, not replayed raw');
    assert.equal(plain.neutral.messages.filter((m) => m.content.startsWith('<turn ')).length, 4, 'the replayed user and assistant events are marked as turns');
  });

  it('reuses a stored model summary that passes validation', () => {
    const a = assemble(snapshot, { now: NOW, summaries: { records: stored() } });
    assert.deepEqual(a.manifest.compacted.map((d) => [d.producer, d.summary_id, d.range]), [['model:gpt-4o', 's1', 'e01…e16']]);
    assert.ok(a.neutral.messages[0].content.includes('Does the mobile client still use v1 of the API? Not confirmed: the mobile team was asked.'));
  });

  it('the hypothesis check: a stored summary listing the hypothesis as a fact is rejected, the manifest says why, and the raw events are replayed', () => {
    const bad = { ...faithfulSummary(), unresolved_questions: [], established_facts: ['The mobile client still uses v1 of the API.'] };
    const a: Assembly = assemble(snapshot, { now: NOW, summaries: { records: stored(bad) } });
    const why = 'established_facts[0] "The mobile client still uses v1 of the API." states as a fact what e15 only raises as a hypothesis or question: "Also, Store Ops says the mobile client may still use v1 of the API — not confirmed, I\'ve asked the mobile team."';
    const rejected = a.manifest.rejected.filter((d) => d.kind === 'session_summary');
    assert.deepEqual(rejected.map((d) => [d.source, d.reason, d.summary_id, d.range]), [['.context/session.jsonl', `summary rejected, raw events kept for this call: ${why}`, 's1', 'e01…e16']]);
    assert.deepEqual(a.manifest.compacted, []);
    assert.equal(a.manifest.session.summary?.status, 'rejected');
    assert.deepEqual(a.manifest.session.summary?.reasons, [why]);
    const { summary: _info, ...counts } = a.manifest.session;
    // Placement by exact counts: PaymentControllerTest.java is 988 tokens, under the 1 200-token excerpt
    // threshold, so it is sent whole (the old 3.6 estimate put it at 1 206 and sent a 528-token excerpt). The 460
    // tokens it takes leave 630 for the older raw events: the oldest three groups (e01-e03, 4 events, 639 tokens for
    // e03's group alone) are left out, oldest first, with their reason; the 20 newest, e15 among them, are replayed.
    // The task's pointers (task/pointers.ts): its "paymentMethod is required" now points at PaymentRequest.java (its @NotNull is the
    // bug) and its paymentMethod at PaymentService.java, both sent; they take the room the older raw events had.
    // The tool definitions with the registry's inputs (search glob, inspect context) take 92 tokens more: the groups
    // up to e12 are left out; the 11 newest events, e15 among them, are replayed.
    assert.deepEqual(counts, { stored: 24, kept_raw: 11, compacted: 0, omitted: 13, store: { kind: 'workspace', path: '.context/session.jsonl' } });
    assert.deepEqual(
      a.manifest.rejected.filter((d) => d.kind === 'session_group').map((d) => [d.source, d.reason, d.events]),
      [
        ['.context/session.jsonl#e01', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 1],
        ['.context/session.jsonl#e02', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 1],
        ['.context/session.jsonl#e03', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 2],
        ['.context/session.jsonl#e05', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 1],
        ['.context/session.jsonl#e06', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 2],
        ['.context/session.jsonl#e08', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 1],
        ['.context/session.jsonl#e09', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 1],
        ['.context/session.jsonl#e10', 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)', 2],
        ['.context/session.jsonl#e12', 'session events omitted: at least 518 tokens needed, 490 left of the budget once documents and tool output were placed', 2],
      ],
    );
    assert.ok(a.trace.includes(`  summary of e01…e16 REJECTED, raw events kept: ${why}\n`));
    assert.ok(!a.neutral.messages[0].content.includes('<session-summary'));
    assert.ok(a.neutral.messages.some((m) => m.role === 'user' && /^<turn source="\.context\/session\.jsonl" line="15" id="e15" role="user" trust="session">\nNo, keep validation of provided values\./.test(m.content)), 'e15 is replayed raw');
  });

  it('never changes the stored history', () => {
    assert.equal(sha(), before);
  });
});
