import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { enforce } from '../../../src/core/chain/enforce';
import { wrap } from '../../../src/core/chain/render';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import type { Block, BlockKind, SessionEvent } from '../../../src/core/types';
import { checkProperty } from '../property-harness';
import { budgetFor, budgetMode, checkRefusal, countRequest, exactBlock, fraction, quarters, words, type BudgetMode } from '../property-chain';

/**
 * enforce, on its contract: it refuses if and only if the protected zone alone (mandatory blocks and the session
 * summary) exceeds max_input; otherwise the request it returns counts at most max_input, every protected block is
 * sent untouched, and the ladder degrades in its order (trim tool results → drop the oldest session groups → summarise
 * documents → drop the lowest-priority ones), never splitting a group.
 */

type Outcome = { refused: ContextBudgetExceeded } | { blocks: Block[]; final: number; steps: { ladder: number; source: string }[] };

/**
 * The one adapter to enforce's shape: everything below reads its result through this function only, so a change of
 * enforce's return value (e.g. `{ value, decisions }`) is one edit here.
 */
function runEnforce(blocks: Block[], maxInput: number): Outcome {
  try {
    const out = enforce({ blocks, maxInput, countRequest, retrim, summarize });
    return { blocks: out.blocks, final: out.final, steps: out.steps.map((s) => ({ ladder: Number(/^ladder (\d)/.exec(s.reason)?.[1] ?? NaN), source: s.source })) };
  } catch (e) {
    if (e instanceof ContextBudgetExceeded) return { refused: e };
    throw e;
  }
}

/** A tool result cut to its first words (always a prefix, always smaller). */
function retrim(b: Block, max: number): Block | undefined {
  const text = b.text.slice(0, Math.max(1, max * 4 - 60));
  const smaller = { ...b, text };
  smaller.tokens = quarters.count(wrap(smaller));
  return text.length < b.text.length && smaller.tokens < b.tokens ? smaller : undefined;
}

function summarize(b: Block): Block {
  const text = `${b.meta.title ?? b.source} (summary)`;
  const summary = { ...b, text, meta: { ...b.meta, summarized: true } };
  return { ...summary, tokens: quarters.count(wrap(summary)) };
}

const PROTECTED_KINDS = ['agents_md', 'pinned', 'session_summary', 'system_instructions'] as const;
const FLEXIBLE_KINDS = ['document', 'decision', 'source_code', 'tool_result', 'tool_result', 'session_group', 'session_group', 'index'] as const;
const spec = (kinds: readonly BlockKind[], max: number) => fc.record({ kind: fc.constantFrom(...kinds), words: fc.integer({ min: 1, max }), priority: fc.integer({ min: 0, max: 100 }), salt: fc.nat(500) });
type Spec = { kind: BlockKind; words: number; priority: number; salt: number };

/** Candidates in a shuffled order, the task last; session groups carry tool calls with their results. */
function candidates(protectedSpecs: Spec[], flexibleSpecs: Spec[], order: number[]): Block[] {
  const all = [...protectedSpecs, ...flexibleSpecs].map((s, i): Block => {
    const text = words(s.words, s.salt);
    if (s.kind !== 'session_group') return exactBlock(s.kind, `${s.kind}/f${i}`, text, { title: `t${i}` }, s.priority);
    const events: SessionEvent[] =
      s.salt % 2 === 0
        ? [{ id: `e${i}a`, type: 'tool_call', call_id: `c${i}`, tool: 'grep', text: '{"q":"x"}' }, { id: `e${i}b`, type: 'tool_result', call_id: `c${i}`, text }]
        : [{ id: `e${i}a`, type: 'user', text }];
    return exactBlock('session_group', `session#e${i}a`, text, { events, groupIndex: (i * 37) % 101 });
  });
  const shuffled = order.length ? all.map((b, i) => ({ b, k: order[i % order.length] * 100 + i })).sort((x, y) => x.k - y.k).map((x) => x.b) : all;
  return [...shuffled, exactBlock('current_task', 'task', 'Fix the regression in checkout.')];
}

const isProtectedZone = (b: Block) => b.mandatory || b.kind === 'session_summary';
const ids = (bs: Block[]) => bs.map((b) => b.id);

const LABELS = [
  'fits without the ladder',
  'ladder step ≥ 1',
  'ladder 1: tool result trimmed',
  'ladder 2: oldest session group dropped',
  'ladder 3: document summarised',
  'ladder 4: document dropped',
  'refused because protected > max_input',
  'max_input = protected, fits',
  'refused for another reason',
] as const;

describe('enforce (property)', () => {
  it('refuses iff the protected zone alone exceeds max_input; otherwise fits, protected blocks untouched, ladder in order', (t) => {
    checkProperty(t, {
      labels: LABELS,
      floors: {
        'fits without the ladder': 0.05,
        'ladder step ≥ 1': 0.3,
        'ladder 1: tool result trimmed': 0.1,
        'ladder 2: oldest session group dropped': 0.1,
        'ladder 3: document summarised': 0.05,
        'ladder 4: document dropped': 0.05,
        'refused because protected > max_input': 0.15,
        'max_input = protected, fits': 0.05,
      },
      never: ['refused for another reason'],
      arbitraries: [
        fc.array(spec(PROTECTED_KINDS, 200), { maxLength: 4 }),
        fc.array(spec(FLEXIBLE_KINDS, 300), { maxLength: 10 }),
        fc.array(fc.nat(20), { maxLength: 14 }),
        budgetMode,
        fraction,
      ],
      check: (cov, protectedSpecs: Spec[], flexibleSpecs: Spec[], order: number[], mode: BudgetMode, f: number) => {
        const blocks = candidates(protectedSpecs, flexibleSpecs, order);
        const before = structuredClone(blocks);
        const zone = blocks.filter(isProtectedZone);
        const protectedCount = countRequest(zone);
        const maxInput = budgetFor(mode, f, protectedCount, countRequest(blocks));
        const out = runEnforce(blocks, maxInput);
        assert.deepEqual(blocks, before, 'enforce never changes its input');
        if ('refused' in out) {
          checkRefusal(cov, out.refused, protectedCount, maxInput, ids(zone));
          return;
        }
        assert.ok(protectedCount <= maxInput, `not refused although the protected zone (${protectedCount}) exceeds max_input ${maxInput}`);
        cov.hit('max_input = protected, fits', maxInput === protectedCount);
        cov.hit('fits without the ladder', out.steps.length === 0);
        cov.hit('ladder step ≥ 1', out.steps.length > 0);
        for (const n of [1, 2, 3, 4] as const) cov.hit(LABELS[n + 1], out.steps.some((s) => s.ladder === n));
        assert.equal(out.final, countRequest(out.blocks), 'final is the count of the blocks returned');
        assert.ok(out.final <= maxInput, `final ${out.final} > max_input ${maxInput}`);
        assert.equal(out.steps.length === 0, countRequest(blocks) <= maxInput, 'the ladder runs iff the candidates do not fit');
        // Protected blocks: all sent, untouched, in their order.
        assert.deepEqual(out.blocks.filter(isProtectedZone), zone);
        // Nothing new, nothing twice, the input's order kept; each change is one the ladder may make.
        const inputIds = ids(blocks);
        assert.deepEqual(ids(out.blocks), inputIds.filter((id) => out.blocks.some((b) => b.id === id)));
        for (const b of out.blocks) {
          const was = blocks.find((x) => x.id === b.id)!;
          if (b === was || JSON.stringify(b) === JSON.stringify(was)) continue;
          if (b.kind === 'tool_result') assert.ok(was.text.startsWith(b.text) && b.tokens < was.tokens, `${b.id} only ever shrinks`);
          else assert.ok(b.meta.summarized && ['document', 'decision', 'source_code'].includes(b.kind), `${b.id} changed by no ladder step`);
        }
        // The ladder's order: steps never go back to an earlier rung; groups go whole, oldest first.
        const rungs = out.steps.map((s) => s.ladder);
        assert.deepEqual(rungs, [...rungs].sort((a, b) => a - b), `ladder order ${rungs.join(',')}`);
        const groups = blocks.filter((b) => b.kind === 'session_group').sort((a, b) => (a.meta.groupIndex ?? 0) - (b.meta.groupIndex ?? 0));
        const dropped = groups.filter((g) => !out.blocks.includes(g));
        assert.deepEqual(ids(dropped), ids(groups.slice(0, dropped.length)), 'the oldest groups go first');
        assert.deepEqual(out.steps.filter((s) => s.ladder === 2).map((s) => s.source), dropped.map((g) => g.source));
      },
    });
  });
});
