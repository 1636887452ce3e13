import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import type { RequestMessage } from '../../../src/core/chain/render';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import type { OffloadStore } from '../../../src/core/offload/store';
import { withMaxInput, type Policy } from '../../../src/core/policy';
import { loadSnapshot, type Snapshot } from '../../../src/core/sources/snapshot';
import type { Block, SessionEvent } from '../../../src/core/types';
import { checkProperty } from '../property-harness';
import { budgetFor, budgetMode, checkRefusal, fraction, logLines, quarters, session, sessionPolicy, text, type BudgetMode } from '../property-chain';

/**
 * The whole chain (collect → … → fill → render → enforce) on generated inputs that reach its interesting paths:
 * sessions with tool calls and their results, pins and rules that can outgrow max_input, tool output that the zone
 * cap trims, tool results that offload, and budgets from refusal to plenty. Through `assemble` only.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-chain-prop-'));
fs.writeFileSync(path.join(root, 'ticket.md'), 'Find why the checkout payment request times out and fix the retry.\n');
fs.writeFileSync(path.join(root, 'AGENTS.md'), '- Keep public APIs backward compatible.\n');
const base = loadSnapshot({ root, task: path.join(root, 'ticket.md'), changes: false });
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Offloaded payloads stay in memory: the property is about the request, not the store. */
const memoryStore: OffloadStore = { dir: '/mem/offload', put: (name, _payload, ext) => ({ abs: `/mem/offload/${name}${ext ?? '.txt'}`, bytes: 0, written: true }), flush: () => undefined };

const limits = fc.record({ tool: fc.integer({ min: 80, max: 800 }), perResult: fc.integer({ min: 100, max: 1200 }), aggregate: fc.integer({ min: 200, max: 2500 }) });
type Limits = { tool: number; perResult: number; aggregate: number };
type Inputs = { events: SessionEvent[]; s: { keep_recent_groups: number; compaction_trigger_tokens: number }; pins: string[]; outputs: string[][]; results: string[][]; docs: string[]; limits: Limits };

const inputs: fc.Arbitrary<Inputs> = fc.record({
  events: session(24),
  s: sessionPolicy,
  pins: fc.array(text(5, 400), { maxLength: 3 }),
  outputs: fc.array(logLines(5, 120), { maxLength: 2 }),
  results: fc.array(logLines(5, 160), { maxLength: 3 }),
  docs: fc.array(text(10, 200), { maxLength: 3 }),
  limits,
});

function snapshotOf(i: Inputs, max: number): Snapshot {
  const policy: Policy = {
    ...base.policy,
    session: { ...base.policy.session, ...i.s },
    zones: { ...base.policy.zones, tool_results: { max_tokens: i.limits.tool } },
    offload: { ...base.policy.offload, per_result_tokens: i.limits.perResult, aggregate_tokens: i.limits.aggregate },
  };
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  return {
    ...base,
    policy: withMaxInput(policy, max),
    session: i.events,
    sessionSource: '.context/session.jsonl',
    pins: i.pins.map((t, k) => ({ id: `p${k}`, source: `src/pinned-${k}.ts`, startLine: 1, endLine: 3, text: t, label: `pin ${k}` })),
    toolOutputs: i.outputs.map((lines, k) => ({ path: `logs/run-${k}.log`, size: size(lines), lines: () => lines })),
    toolResults: i.results.map((lines, k) => ({ name: 'read_logs', source: k ? `tool:read_logs#${k + 1}` : 'tool:read_logs', abs: `/mem/results/r${k}.log`, size: size(lines), lines: () => lines })),
    documents: i.docs.map((body, k) => ({ path: `docs/note-${k}.md`, body, bodyLine: 1, title: `Payment note ${k}` })),
  };
}

const run = (i: Inputs, max: number): Assembly => assemble(snapshotOf(i, max), { tokenizer: quarters, now: () => new Date(0), offloadStore: memoryStore });

/** OpenAI's rule: tool messages answer the assistant message right before them, and every call there is answered. */
function toolMessagesAnswerTheirCalls(messages: RequestMessage[]): number {
  let tools = 0;
  messages.forEach((m, k) => {
    if (m.role === 'tool') {
      let j = k - 1;
      while (messages[j]?.role === 'tool') j--;
      assert.ok(messages[j]?.toolCalls?.some((c) => c.id === m.toolCallId), `tool message ${m.toolCallId} does not follow its call`);
      tools++;
    }
    for (const c of m.toolCalls ?? []) {
      const answers = messages.slice(k + 1).findIndex((x) => x.role !== 'tool');
      const run = messages.slice(k + 1, answers < 0 ? undefined : k + 1 + answers);
      assert.ok(run.some((x) => x.toolCallId === c.id), `call ${c.id} is not answered right after it`);
    }
  });
  return tools;
}

/** Every event of every sent session group reaches the request: as a turn, a tool call, or a tool message. */
function everyReplayedEventSent(blocks: Block[], messages: RequestMessage[]): void {
  const inText = (id: string) => messages.some((m) => m.content.includes(` id="${id}"`));
  const called = new Set(messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
  for (const e of blocks.filter((b) => b.kind === 'session_group').flatMap((b) => b.meta.events ?? [])) {
    const sent = e.type === 'tool_call' ? called.has(e.call_id ?? '') || inText(e.id) : inText(e.id);
    assert.ok(sent, `${e.type} ${e.id} is in a sent group but not in the request`);
  }
}

const isProtectedZone = (b: Block) => b.mandatory || b.kind === 'session_summary';

const LABELS = [
  'tool message in request',
  'tool message with no budget limit',
  'unanswered call replayed as text',
  'ladder step ≥ 1',
  'tool output trimmed',
  'tool result offloaded',
  'pinned block sent',
  'session summary sent',
  'refused because protected > max_input',
  'refused for another reason',
] as const;

describe('the whole chain (property)', () => {
  it('refuses iff the protected zone exceeds max_input; else fits it, protected blocks verbatim, every tool message after its call', (t) => {
    checkProperty(t, {
      labels: LABELS,
      floors: {
        'tool message in request': 0.3,
        // Fill places by exact cost, so the ladder acts only where fill cannot see the final framing:
        // 18.4 % of 1 000 runs at seed 1471037866 (it was over 20 % when fill placed by a 3.6 estimate). Since the
        // index has a budget of its own and holds back only what it needs, fewer runs reach the ladder: 11.4–15.7 %
        // of 1 000 runs at seeds 1, 2, 3 and 1619444353 (a CI run fell under the old 12 % floor).
        'ladder step ≥ 1': 0.08,
        'tool output trimmed': 0.2,
        'tool result offloaded': 0.2,
        'pinned block sent': 0.2,
        'session summary sent': 0.1,
        'refused because protected > max_input': 0.12,
      },
      never: ['refused for another reason'],
      arbitraries: [inputs, budgetMode, fraction],
      check: (cov, i: Inputs, mode: BudgetMode, f: number) => {
        const generous = run(i, 10_000_000);
        const protectedCount = generous.manifest.budget.mandatory;
        cov.hit('tool message with no budget limit', generous.neutral.messages.some((m) => m.role === 'tool'));
        const max = budgetFor(mode, f, protectedCount, generous.manifest.budget.final);
        let a: Assembly;
        try {
          a = run(i, max);
        } catch (e) {
          if (!(e instanceof ContextBudgetExceeded)) throw e;
          checkRefusal(cov, e, protectedCount, max, generous.blocks.filter(isProtectedZone).map((b) => b.id));
          return;
        }
        assert.ok(protectedCount <= max, `not refused although the protected zone (${protectedCount}) exceeds max_input ${max}`);
        const { budget, session: report, degraded, trimmed, offloaded } = a.manifest;
        assert.equal(budget.final, quarters.count(a.serialized));
        assert.ok(budget.final <= max, `final ${budget.final} > max_input ${max}`);
        assert.equal(budget.mandatory, protectedCount);
        assert.deepEqual(a.blocks.filter(isProtectedZone), generous.blocks.filter(isProtectedZone), 'protected blocks sent verbatim');
        assert.equal(report.kept_raw + report.compacted + report.omitted, report.stored);
        const sent = new Set(a.blocks.map((b) => b.source));
        for (const d of [...trimmed, ...offloaded]) assert.ok(sent.has(d.source), `${d.source} is reported trimmed/offloaded but not sent`);
        const tools = toolMessagesAnswerTheirCalls(a.neutral.messages);
        everyReplayedEventSent(a.blocks, a.neutral.messages);
        cov.hit('tool message in request', tools > 0);
        cov.hit('unanswered call replayed as text', a.neutral.messages.some((m) => m.content.includes('note="tool call without a result"')));
        cov.hit('ladder step ≥ 1', degraded.length > 0);
        cov.hit('tool output trimmed', trimmed.length > 0);
        cov.hit('tool result offloaded', offloaded.length > 0);
        cov.hit('pinned block sent', a.blocks.some((b) => b.kind === 'pinned'));
        cov.hit('session summary sent', a.blocks.some((b) => b.kind === 'session_summary'));
      },
    });
  });
});
