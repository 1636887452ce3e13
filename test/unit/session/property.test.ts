import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupEvents, selectSession } from '../../../src/core/chain/session';
import { defaultPolicy, type Policy } from '../../../src/core/policy';
import type { Block } from '../../../src/core/types';
import { session, sessionPolicy } from '../property-chain';
import { checkProperty } from '../property-harness';
import { SESSION_SOURCE } from './fixtures';

const withSession = (p: Policy, s: { keep_recent_groups: number; compaction_trigger_tokens: number }): Policy => ({ ...p, session: { ...p.session, ...s } });

/** Every tool result in a replayed group comes after its call, in the same group. */
function resultsHaveCalls(blocks: Block[]): void {
  for (const b of blocks.filter((x) => x.kind === 'session_group')) {
    const events = b.meta.events ?? [];
    events.forEach((e, i) => {
      if (e.type !== 'tool_result') return;
      const call = events.findIndex((c) => c.type === 'tool_call' && c.call_id === e.call_id);
      assert.ok(call >= 0 && call < i, `result ${e.id} replayed without its call ${e.call_id} in ${b.source}`);
    });
  }
}

describe('property: a tool result is never replayed without its call', () => {
  it('over random sessions and replay policies, selectSession keeps groups whole and the counts add up', (t) => {
    checkProperty(t, {
      labels: ['tool result in a replayed group', 'parallel calls in one group', 'older groups folded into a summary', 'orphan result omitted', 'late result replayed in its call\'s group'],
      floors: { 'late result replayed in its call\'s group': 0.1, 'tool result in a replayed group': 0.3, 'parallel calls in one group': 0.2, 'older groups folded into a summary': 0.2, 'orphan result omitted': 0.1 },
      arbitraries: [session(30), sessionPolicy],
      check: (cov, events, s) => {
        const copy = structuredClone(events);
        const r = selectSession(events, SESSION_SOURCE, withSession(defaultPolicy(), s));
        assert.deepEqual(events, copy, 'stored history is never changed');
        resultsHaveCalls(r.value.groups);
        const whole = groupEvents(events, SESSION_SOURCE).groups.map((g) => g.events.map((e) => e.id).join(','));
        for (const b of r.value.groups) assert.ok(whole.includes((b.meta.events ?? []).map((e) => e.id).join(',')), `${b.source} is a whole group`);
        const { stored, kept_raw, compacted, omitted } = r.value.report;
        assert.equal(stored, events.length);
        assert.equal(kept_raw + compacted + omitted, stored);
        const replayed = r.value.groups.map((b) => b.meta.events ?? []);
        cov.hit('tool result in a replayed group', replayed.some((g) => g.some((e) => e.type === 'tool_result')));
        cov.hit('parallel calls in one group', replayed.some((g) => g.filter((e) => e.type === 'tool_call').length > 1));
        cov.hit('older groups folded into a summary', compacted > 0);
        cov.hit('orphan result omitted', omitted > 0);
        const consecutive = (g: { line?: number }[]) => g.every((e, k) => k === 0 || e.line === (g[k - 1].line ?? 0) + 1);
        cov.hit('late result replayed in its call\'s group', replayed.some((g) => !consecutive(g)));
      },
    });
  });
});
