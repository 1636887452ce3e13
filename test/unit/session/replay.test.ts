import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectSession } from '../../../src/core/chain/session';
import { groupEvents, replayStart } from '../../../src/core/session/group';
import { defaultPolicy, type Policy } from '../../../src/core/policy';
import { rangeOf, type SummaryRecord } from '../../../src/core/session/summary-store';
import type { SessionEvent } from '../../../src/core/types';
import { counter } from '../helpers';
import { EXAMPLE_PATHS, exampleEvents, faithfulSummary, foldedExampleEvents, SESSION_SOURCE } from './fixtures';

const ctx = { knownSources: EXAMPLE_PATHS };
const NOW = '2026-11-12T10:20:00.000Z';
const stored = (events: SessionEvent[], summary = faithfulSummary(), producer = 'model:gpt-4o'): SummaryRecord => ({
  id: 's1', action: 'compact', created_at: NOW, producer, covers: rangeOf(events), summary,
});
const policyWith = (session: Partial<Policy['session']>, zones: Partial<Policy['zones']> = {}): Policy => {
  const p = defaultPolicy();
  return { ...p, session: { ...p.session, ...session }, zones: { ...p.zones, ...zones } };
};

describe('groupEvents', () => {
  it('keeps a tool call with all its results, parallel calls together, and reports an orphan result by line', () => {
    const events: SessionEvent[] = [
      { id: 'u1', type: 'user', text: 'Check both logs.', line: 1 },
      { id: 'c1', type: 'tool_call', text: '{}', call_id: 'a', tool: 'read_logs', line: 2 },
      { id: 'c2', type: 'tool_call', text: '{}', call_id: 'b', tool: 'read_logs', line: 3 },
      { id: 'r1', type: 'tool_result', text: 'A', call_id: 'a', line: 4 },
      { id: 'x1', type: 'assistant', text: 'Waiting for b.', line: 5 },
      { id: 'r2', type: 'tool_result', text: 'B', call_id: 'b', line: 6 },
      { id: 'r3', type: 'tool_result', text: 'lost', call_id: 'zz', line: 7 },
    ];
    const { groups, orphans, warnings } = groupEvents(events, SESSION_SOURCE);
    assert.deepEqual(groups.map((g) => g.events.map((e) => e.id)), [['u1'], ['c1', 'c2', 'r1', 'r2'], ['x1']]);
    assert.deepEqual(orphans.map((e) => e.id), ['r3']);
    assert.deepEqual(warnings, [{ source: SESSION_SOURCE, line: 7, message: 'tool result r3 has no matching tool call (call_id zz): not replayed' }]);
  });
});

describe('replayStart', () => {
  const { groups } = groupEvents(exampleEvents(), SESSION_SOURCE);
  it('keeps the last keep_recent_groups groups', () => {
    assert.equal(groups.length, 18);
    assert.equal(replayStart(groups, defaultPolicy()), 12);
    assert.equal(replayStart(groups, policyWith({ keep_recent_groups: 0 })), 18, 'keep 0 folds everything');
    assert.equal(replayStart(groups, policyWith({ keep_recent_groups: 40 })), 0);
  });
  it('or the newest run of groups that fits the raw budget (trigger, or the session zone cap)', () => {
    // The last six groups estimate at 1 492 (e17-e18), 137, 593 (e20-e21), 91, 56 and 149 tokens (estimate.ts, by
    // content type): 2 518 in all; counted exactly (o200k_base) they are 1 037, 141, 582, 82, 50 and 153: 2 045.
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 300 })), 15);
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 300 }), counter), 15);
    // With the chain's tokenizer the split is exact: a 2 100-token raw budget holds all six groups, which the estimate
    // (2 518) would have cut to five.
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 2100 }), counter), 12);
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 2100 })), 13);
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 2044 }), counter), 13, 'one token short of the six');
    assert.equal(replayStart(groups, policyWith({}, { session: { max_tokens: 1200 } })), 13);
    assert.equal(replayStart(groups, policyWith({ compaction_trigger_tokens: 10 })), 17, 'the budget never drops the newest group');
  });
});

describe('selectSession on the example', () => {
  it('replays the six most recent groups raw and folds the twelve older ones; stored events are untouched', () => {
    const events = exampleEvents();
    const copy = structuredClone(events);
    const r = selectSession(events, SESSION_SOURCE, defaultPolicy(), ctx);
    assert.deepEqual(events, copy);
    assert.deepEqual(r.value.groups.map((b) => b.source), ['e17', 'e19', 'e20', 'e22', 'e23', 'e24'].map((id) => `${SESSION_SOURCE}#${id}`));
    assert.deepEqual(r.value.groups.map((b) => b.meta.events?.map((e) => e.id)), [['e17', 'e18'], ['e19'], ['e20', 'e21'], ['e22'], ['e23'], ['e24']]);
    const { summary: info, ...counts } = r.value.report;
    assert.deepEqual(counts, { stored: 24, kept_raw: 8, compacted: 16, omitted: 0, store: { kind: 'workspace', path: '.context/session.jsonl' } });
    assert.equal(info?.status, 'accepted');
    assert.equal(info?.range, 'e01…e16');
    assert.equal(r.value.summary?.kind, 'session_summary');
    assert.equal(r.value.summary?.text.split('\n')[0], '# Summary of session events e01…e16 (16 events), extractive fallback (no model configured): sentences copied from the events, not rewritten');
    assert.deepEqual(r.decisions.compacted?.map((d) => [d.source, d.kind, d.producer, d.range, d.events, d.groups]), [[SESSION_SOURCE, 'session_summary', 'extractive', 'e01…e16', 16, 12]]);
    assert.deepEqual(r.decisions.rejected, []);
  });

  it('reuses the stored summary that covers exactly the folded events', () => {
    const r = selectSession(exampleEvents(), SESSION_SOURCE, defaultPolicy(), { ...ctx, summaries: [stored(foldedExampleEvents())] });
    assert.equal(r.value.report.summary?.producer, 'model:gpt-4o');
    assert.equal(r.value.report.summary?.summary_id, 's1');
    assert.equal(r.value.summary?.text.split('\n')[0], '# Summary of session events e01…e16 (16 events), produced by the model gpt-4o (stored summary s1)');
    assert.ok(r.value.summary?.text.includes('Does the mobile client still use v1 of the API?'));
  });

  it('extends a stored summary of the first events with the fallback for the groups folded since', () => {
    const first = foldedExampleEvents().slice(0, 13); // e01…e13, ends on a group boundary
    const r = selectSession(exampleEvents(), SESSION_SOURCE, defaultPolicy(), { ...ctx, summaries: [stored(first)] });
    assert.equal(r.value.report.summary?.producer, 'model:gpt-4o+extractive');
    assert.equal(r.value.report.summary?.label, 'produced by the model gpt-4o (stored summary s1), extended by the extractive fallback (no model configured): sentences copied from the events, not rewritten for e14…e16');
    assert.equal(r.value.report.compacted, 16);
  });

  it('does not reuse a stored summary whose events changed, and says why', () => {
    const changed = foldedExampleEvents().map((e) => (e.id === 'e09' ? { ...e, text: e.text + ' (edited)' } : e));
    const r = selectSession(exampleEvents(), SESSION_SOURCE, defaultPolicy(), { ...ctx, summaries: [stored(changed)] });
    assert.equal(r.value.report.summary?.producer, 'extractive');
    assert.deepEqual(r.decisions.compacted?.[0].notes, ['stored summary s1 (e01…e16) not used: the events it covers have changed since it was made']);
    const beyond = selectSession(exampleEvents(), SESSION_SOURCE, defaultPolicy(), { ...ctx, summaries: [stored(exampleEvents().slice(0, 19))] });
    assert.deepEqual(beyond.decisions.compacted?.[0].notes, ['stored summary s1 (e01…e19) not used: it covers events replayed raw (up to e19)']);
  });

  it('rejects a stored summary that turns the hypothesis into a fact, keeps the raw events for this call and says why', () => {
    const bad = { ...faithfulSummary(), established_facts: ['The mobile client still uses v1 of the API.'] };
    const events = exampleEvents();
    const r = selectSession(events, SESSION_SOURCE, defaultPolicy(), { ...ctx, summaries: [stored(foldedExampleEvents(), bad)] });
    assert.equal(r.value.summary, undefined);
    assert.equal(r.value.groups.length, 18);
    const { summary: info, ...counts } = r.value.report;
    assert.deepEqual(counts, { stored: 24, kept_raw: 24, compacted: 0, omitted: 0, store: { kind: 'workspace', path: '.context/session.jsonl' } });
    assert.equal(info?.status, 'rejected');
    const reason = `established_facts[0] "The mobile client still uses v1 of the API." states as a fact what e15 only raises as a hypothesis or question: "Also, Store Ops says the mobile client may still use v1 of the API — not confirmed, I've asked the mobile team."`;
    assert.deepEqual(r.decisions.rejected?.map((d) => [d.source, d.kind, d.reason]), [[SESSION_SOURCE, 'session_summary', `summary rejected, raw events kept for this call: ${reason}`]]);
    assert.deepEqual(r.decisions.compacted, []);
  });
});
