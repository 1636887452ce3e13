import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enforce } from '../../../src/core/chain/enforce';
import { ContextBudgetExceeded } from '../../../src/core/errors';
import type { Block } from '../../../src/core/types';
import { block, countRequest, counter } from '../helpers';

/** The stage's value with its ladder steps beside it. */
function run(input: Parameters<typeof enforce>[0]) {
  const r = enforce(input);
  return { ...r.value, steps: r.decisions.degraded ?? [] };
}

const noRetrim = () => undefined;
const summarize = (b: Block): Block => {
  const text = `${b.meta.title ?? b.source} (summary)`;
  return { ...b, text, tokens: counter.count(text), meta: { ...b.meta, summarized: true } };
};

/** The removal-order reference scenario: instructions, three facts, a summary, two turns and the question. */
function seed001(): Block[] {
  const turn = (i: number, text: string) => {
    const b = block('session_group', `session#t${i}`, text, { meta: { groupIndex: i, events: [{ id: `t${i}`, type: i % 2 ? 'assistant' : 'user', text }] } });
    return b;
  };
  return [
    block('system_instructions', 'builtin:system', 'You are a helpful assistant.'),
    block('document', 'facts/team.md', 'The user works in the payments team.', { priority: 3, meta: { title: 'team' } }),
    block('document', 'facts/lang.md', 'The user prefers answers in French.', { priority: 2, meta: { title: 'lang' } }),
    block('document', 'facts/tz.md', 'The user is in the Paris time zone.', { priority: 1, meta: { title: 'tz' } }),
    block('session_summary', 'session#summary', 'objective: find the user team'),
    turn(0, 'Hello, who am I?'),
    turn(1, 'You are a member of the payments team, working from Paris.'),
    block('current_task', 'task', 'Which team am I in?'),
  ];
}

describe('enforce (the removal-order reference check)', () => {
  it('a generous budget keeps everything', () => {
    const blocks = seed001();
    const out = run({ blocks, maxInput: 6000, countRequest, retrim: noRetrim, summarize });
    assert.equal(out.blocks.length, blocks.length);
    assert.deepEqual(out.steps, []);
    assert.ok(out.final <= 6000);
  });

  it('a budget of 120 keeps only the instructions, the summary and the question', () => {
    const out = run({ blocks: seed001(), maxInput: 120, countRequest, retrim: noRetrim, summarize });
    assert.deepEqual(out.blocks.map((b) => b.kind), ['system_instructions', 'session_summary', 'current_task']);
    assert.ok(out.final <= 120, `final ${out.final}`);
    // The order of removal: oldest turns first, then the facts (summarized, then dropped) from the least relevant.
    assert.deepEqual(
      out.steps.map((s) => `${s.reason.slice(0, 8)} ${s.source}`),
      [
        'ladder 2 session#t0',
        'ladder 2 session#t1',
        'ladder 3 facts/tz.md',
        'ladder 3 facts/lang.md',
        'ladder 3 facts/team.md',
        'ladder 4 facts/tz.md',
        'ladder 4 facts/lang.md',
        'ladder 4 facts/team.md',
      ].slice(0, out.steps.length),
    );
    assert.equal(out.steps.filter((s) => s.reason.startsWith('ladder 4')).length, 3);
  });
});

describe('enforce (the ladder)', () => {
  it('trims the largest tool result before touching session events or documents', () => {
    const big = block('tool_result', 'big.log', 'E '.repeat(600));
    const small = block('tool_result', 'small.log', 'W '.repeat(100));
    const doc = block('document', 'docs/a.md', 'A document. '.repeat(20), { priority: 10 });
    const group = block('session_group', 'session#e1', 'an old turn', { meta: { groupIndex: 0, events: [{ id: 'e1', type: 'user', text: 'an old turn' }] } });
    const task = block('current_task', 'task', 'Fix it.');
    const retrim = (b: Block, max: number): Block | undefined => {
      const text = 'E '.repeat(Math.max(1, max - 5));
      const tokens = counter.count(text);
      return tokens < b.tokens ? { ...b, text, tokens } : undefined;
    };
    const all = [task, big, small, doc, group];
    const budget = countRequest(all) - 200;
    const out = run({ blocks: all, maxInput: budget, countRequest, retrim, summarize });
    assert.equal(out.steps[0].reason, 'ladder 1: trimmed the largest tool result');
    assert.equal(out.steps[0].source, 'big.log');
    assert.ok(out.blocks.includes(group), 'the session group survives when trimming was enough');
    assert.ok(out.blocks.includes(doc));
    assert.ok(out.final <= budget);
  });

  it('drops whole session groups, oldest first, so a tool call never loses its result', () => {
    const events = [
      { id: 'c1', type: 'tool_call' as const, call_id: 'c1', tool: 'read_logs', text: '{"path":"app.log"}' },
      { id: 'r1', type: 'tool_result' as const, call_id: 'c1', text: 'ERROR paymentMethod is required' },
    ];
    const g0 = block('session_group', 'session#c1', 'call+result', { meta: { groupIndex: 0, events } });
    const g1 = block('session_group', 'session#u2', 'later', { meta: { groupIndex: 1, events: [{ id: 'u2', type: 'user', text: 'and now?' }] } });
    const task = block('current_task', 'task', 'Fix it.');
    const budget = countRequest([task, g1]);
    const out = run({ blocks: [task, g0, g1], maxInput: budget, countRequest, retrim: noRetrim, summarize });
    assert.deepEqual(out.removed.map((b) => b.source), ['session#c1']);
    assert.deepEqual(out.steps.map((s) => s.reason), ['ladder 2: dropped the oldest session events']);
  });

  it('refuses with ContextBudgetExceeded naming each mandatory block and its tokens', () => {
    const rules = block('agents_md', 'AGENTS.md', 'Never break the API. '.repeat(40));
    const task = block('current_task', 'ticket.md', 'Fix the 400s.');
    const doc = block('document', 'docs/a.md', 'optional');
    assert.throws(
      () => enforce({ blocks: [rules, task, doc], maxInput: 100, countRequest, retrim: noRetrim, summarize }),
      (e: unknown) => {
        assert.ok(e instanceof ContextBudgetExceeded);
        assert.deepEqual(e.blocks.map((b) => [b.kind, b.source, b.tokens]), [
          ['agents_md', 'AGENTS.md', rules.tokens],
          ['current_task', 'ticket.md', task.tokens],
        ]);
        assert.match(e.message, /the mandatory blocks need \d+ tokens but max_input is 100/);
        assert.match(e.message, /agents_md\s+AGENTS\.md\s+\d+ tokens/);
        return true;
      },
    );
  });
});
