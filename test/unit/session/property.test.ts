import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { assemble } from '../../../src/core/chain/assemble';
import { selectSession } from '../../../src/core/chain/session';
import { groupEvents } from '../../../src/core/session/group';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import { defaultPolicy, withMaxInput, type Policy } from '../../../src/core/policy';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import type { Tokenizer } from '../../../src/core/tokens';
import type { Block, SessionEvent } from '../../../src/core/types';
import { SESSION_SOURCE, tempWorkspace } from './fixtures';

const WORDS = ['the', 'log', 'shows', 'may', 'confirmed', 'payment', 'client', 'v1', 'timeout', 'retry', 'next', 'fix', 'test', 'failed', 'service', '?', 'controller'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ') + '.');
type Op = { kind: 'user' | 'assistant'; text: string } | { kind: 'call'; c: number } | { kind: 'result'; c: number; text: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('user' as const, 'assistant' as const), text }),
  fc.record({ kind: fc.constant('call' as const), c: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant('result' as const), c: fc.integer({ min: 0, max: 6 }), text }),
);

/** A random session: messages, tool calls (some parallel, some never answered), results (some late, some orphans). */
const session = fc.array(op, { maxLength: 40 }).map((ops) =>
  ops.map((o, i): SessionEvent => {
    const id = `e${i + 1}`;
    if (o.kind === 'call') return { id, type: 'tool_call', text: `{"step": ${i}}`, call_id: `c${o.c}`, tool: 'grep', line: i + 1 };
    if (o.kind === 'result') return { id, type: 'tool_result', text: o.text, call_id: `c${o.c}`, line: i + 1 };
    return { id, type: o.kind, text: o.text, line: i + 1 };
  }),
);
const sessionPolicy = fc.record({ keep_recent_groups: fc.integer({ min: 0, max: 8 }), compaction_trigger_tokens: fc.integer({ min: 1, max: 400 }) });
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
  it('over random sessions and replay policies, selectSession keeps groups whole and the counts add up', () => {
    fc.assert(
      fc.property(session, sessionPolicy, (events, s) => {
        const copy = structuredClone(events);
        const r = selectSession(events, SESSION_SOURCE, withSession(defaultPolicy(), s));
        assert.deepEqual(events, copy, 'stored history is never changed');
        resultsHaveCalls(r.value.groups);
        const whole = groupEvents(events, SESSION_SOURCE).groups.map((g) => g.events.map((e) => e.id).join(','));
        for (const b of r.value.groups) assert.ok(whole.includes((b.meta.events ?? []).map((e) => e.id).join(',')), `${b.source} is a whole group`);
        const { stored, kept_raw, compacted, omitted } = r.value.report;
        assert.equal(stored, events.length);
        assert.equal(kept_raw + compacted + omitted, stored);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  const root = tempWorkspace({ 'ticket.md': 'Find why checkout times out.\n', 'AGENTS.md': '- Keep public APIs backward compatible.\n' });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const base = loadSnapshot({ root, task: path.join(root, 'ticket.md') });
  const quarters: Tokenizer = { encoding: 'quarters', count: (t) => Math.ceil(t.length / 4) };

  it('through the whole chain (fill, enforce ladder, render), every tool message follows its call', () => {
    fc.assert(
      fc.property(session, sessionPolicy, fc.integer({ min: 500, max: 3000 }), (events, s, max) => {
        const snapshot = { ...base, policy: withMaxInput(withSession(base.policy, s), max), session: events, sessionSource: SESSION_SOURCE };
        let a;
        try {
          a = assemble(snapshot, { tokenizer: quarters, now: () => new Date(0) });
        } catch (e) {
          if (e instanceof ContextBudgetExceeded) return; // refused, never cut: nothing replayed
          throw e;
        }
        resultsHaveCalls(a.blocks);
        const called = new Set<string>();
        for (const m of a.neutral.messages) {
          for (const c of m.toolCalls ?? []) called.add(c.id);
          if (m.role === 'tool') assert.ok(called.has(m.toolCallId ?? ''), `tool message ${m.toolCallId} without a preceding call`);
        }
        const { stored, kept_raw, compacted, omitted } = a.manifest.session;
        assert.equal(kept_raw + compacted + omitted, stored);
        assert.ok(a.manifest.budget.final <= max);
      }),
      { numRuns: 80, seed: 11 },
    );
  });
});
