import assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeBlock } from '../../src/core/chain/collect';
import { render, wrap } from '../../src/core/chain/render';
import { defaultPolicy } from '../../src/core/policy';
import { serializeRequest } from '../../src/core/providers/shape';
import type { ContextBudgetExceeded } from '../../src/core/errors';
import type { Tokenizer } from '../../src/core/tokens';
import type { Coverage } from './property-harness';
import type { Block, BlockKind, BlockMeta, SessionEvent, Trust } from '../../src/core/types';

/**
 * Generators and a cheap counter shared by the chain's property tests. The counter is a consistent tokenizer (a
 * quarter of the characters), injected where the chain takes one, so a thousand runs cost seconds, not minutes: the
 * properties are about the chain's arithmetic and order, which hold for any consistent count.
 */

export const quarters: Tokenizer = { encoding: 'quarters', count: (t) => Math.ceil(t.length / 4) };

/** The exact count of the serialized request holding `blocks`, as assemble counts it. */
export function countRequest(blocks: Block[]): number {
  return quarters.count(serializeRequest(render(blocks, 'gpt-4o', 2000), 'openai', true));
}

const TRUST: Partial<Record<BlockKind, Trust>> = {
  current_task: 'user', pinned: 'user', agents_md: 'project-rule', session_summary: 'session', session_group: 'session',
  tool_result: 'tool-output', source_code: 'project-source', index: 'harness', system_instructions: 'harness', tool_definitions: 'harness',
};

/** A block with exact tokens (its wrapped text counted), as the chain hands candidates to enforce. */
export function exactBlock(kind: BlockKind, source: string, text: string, meta: BlockMeta = {}, priority?: number): Block {
  const b = makeBlock(defaultPolicy(), kind, source, TRUST[kind] ?? 'project-document', text, meta, priority);
  b.tokens = quarters.count(wrap(b));
  b.exact = true;
  return b;
}

const WORDS = [
  'the', 'log', 'shows', 'payment', 'client', 'v1', 'timeout', 'retry', 'confirmed', 'next', 'fix', 'test', 'failed', 'service',
  'controller', 'may', 'decided', 'keep', 'validation', 'legacy', 'checkout', 'refund', 'null', 'field', 'error', 'request',
];

/** `n` words drawn deterministically from `salt`: cheap to generate, varied enough for the trimmers and the summariser. */
export function words(n: number, salt: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(salt * 7 + i * (salt % 5 + 1)) % WORDS.length]);
  return out.join(' ');
}

/** Text of `min`…`max` words. */
export const text = (min: number, max: number): fc.Arbitrary<string> => fc.tuple(fc.integer({ min, max }), fc.nat(1000)).map(([n, s]) => words(n, s) + '.');

/** A log of `min`…`max` lines, errors and warnings among the info lines, as the log trimmer meets them. */
export const logLines = (min: number, max: number): fc.Arbitrary<string[]> =>
  fc.tuple(fc.integer({ min, max }), fc.nat(1000), fc.integer({ min: 2, max: 9 })).map(([n, salt, every]) =>
    Array.from({ length: n }, (_, i) => {
      const level = i % every === 0 ? 'ERROR' : i % (every + 3) === 0 ? 'WARN' : 'INFO';
      return `2026-03-0${(i % 9) + 1}T10:${String(i % 60).padStart(2, '0')}:00Z ${level} [svc-${salt % 4}] ${words(4 + ((salt + i) % 9), salt + i)}`;
    }),
  );

type Turn =
  | { t: 'say'; role: 'user' | 'assistant'; text: string }
  | { t: 'tools'; calls: { args: string; result: string; answer: 'now' | 'late' | 'never' }[]; reversed: boolean }
  | { t: 'orphan'; text: string };

const toolsTurn: fc.Arbitrary<Turn> = fc.record({
  t: fc.constant('tools' as const),
  calls: fc.array(fc.record({ args: text(1, 6), result: text(1, 40), answer: fc.integer({ min: 0, max: 9 }).map((n) => (n === 0 ? 'never' : n === 1 ? 'late' : 'now') as 'now' | 'late' | 'never') }), { minLength: 1, maxLength: 3 }),
  reversed: fc.boolean(),
});
const turn: fc.Arbitrary<Turn> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('say' as const), role: fc.constantFrom('user' as const, 'assistant' as const), text: text(1, 40) }) },
  { weight: 5, arbitrary: toolsTurn },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('orphan' as const), text: text(1, 10) }) },
);

/**
 * A stored session the way agents write them: messages, tool calls (one or several in parallel) each followed by
 * its results (in either order, a few never answered, a few only after the next turn), and now and then an orphan
 * result whose call is not stored.
 * Most end on a tool exchange: the context is rebuilt before the model call that follows a tool's result.
 */
export const session = (maxTurns = 24): fc.Arbitrary<SessionEvent[]> =>
  fc.tuple(fc.array(turn, { minLength: 1, maxLength: maxTurns }), fc.option(toolsTurn, { freq: 3 })).map(([earlier, last]) => {
    const turns = last ? [...earlier, last] : earlier;
    const events: SessionEvent[] = [];
    const push = (e: Omit<SessionEvent, 'id' | 'line'>) => events.push({ id: `e${events.length + 1}`, line: events.length + 1, ...e });
    let late: Omit<SessionEvent, 'id' | 'line'>[] = [];
    turns.forEach((tn, i) => {
      const pending = late;
      late = [];
      if (tn.t === 'say') push({ type: tn.role, text: tn.text });
      else if (tn.t === 'orphan') push({ type: 'tool_result', call_id: `gone${i}`, text: tn.text });
      else {
        const calls = tn.calls.map((c, k) => ({ ...c, id: `c${i}_${k}`, tool: k % 2 ? 'grep' : 'read_logs' }));
        for (const c of calls) push({ type: 'tool_call', call_id: c.id, tool: c.tool, text: JSON.stringify({ query: c.args }) });
        for (const c of tn.reversed ? [...calls].reverse() : calls) {
          const result = { type: 'tool_result' as const, call_id: c.id, text: c.result };
          if (c.answer === 'now') push(result);
          else if (c.answer === 'late') late.push(result);
        }
      }
      pending.forEach(push);
    });
    return events;
  });

export const sessionPolicy = fc.record({ keep_recent_groups: fc.integer({ min: 0, max: 8 }), compaction_trigger_tokens: fc.integer({ min: 20, max: 3000 }) });

/**
 * Where the budget falls: under the protected zone, at its edge, anywhere in the ladder's range, just under the whole
 * request (a little must go), or above it.
 */
export type BudgetMode = 'refuse' | 'edge-refuse' | 'edge-fit' | 'ladder' | 'tight' | 'fits';
export const budgetMode: fc.Arbitrary<BudgetMode> = fc.constantFrom<BudgetMode>('refuse', 'edge-refuse', 'edge-fit', 'ladder', 'ladder', 'tight', 'tight', 'fits', 'fits');
/** A fraction in [0, 1), as thousandths. */
export const fraction = fc.integer({ min: 0, max: 999 }).map((n) => n / 1000);

/** max_input for a mode, from the protected zone's count and the whole request's. */
export function budgetFor(mode: BudgetMode, f: number, protectedCount: number, full: number): number {
  const room = Math.max(0, full - protectedCount);
  switch (mode) {
    case 'refuse':
      return Math.max(1, Math.min(protectedCount - 1, Math.floor(protectedCount * (0.3 + 0.7 * f))));
    case 'edge-refuse':
      return Math.max(1, protectedCount - 1);
    case 'edge-fit':
      return protectedCount;
    case 'ladder':
      return protectedCount + Math.floor(room * f);
    case 'tight':
      return full - Math.ceil(room * 0.08 * f);
    case 'fits':
      return full + Math.floor(100 * f);
  }
}

/**
 * A refusal is right only when the protected zone alone exceeds max_input, and then it says so with the figures and
 * names exactly the protected blocks. Counted as one of two coverage labels, the second of which must stay at 0.
 */
export function checkRefusal(cov: Coverage, e: ContextBudgetExceeded, protectedCount: number, maxInput: number, protectedIds: string[]): void {
  cov.hit('refused because protected > max_input', protectedCount > maxInput);
  cov.hit('refused for another reason', protectedCount <= maxInput);
  assert.ok(protectedCount > maxInput, `refused although the protected zone (${protectedCount}) fits max_input ${maxInput}`);
  assert.equal(e.maxInput, maxInput);
  assert.equal(e.mandatoryTokens, protectedCount);
  assert.deepEqual(e.blocks.map((b) => b.id), protectedIds, 'the refusal names exactly the protected blocks');
}
