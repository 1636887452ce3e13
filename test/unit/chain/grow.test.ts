import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fill } from '../../../src/core/chain/fill';
import { grownZone } from '../../../src/core/chain/grow';
import { indexBlock, indexBudgetOf, leftOutOfIndex, withinIndexBudget } from '../../../src/core/chain/index-block';
import { defaultPolicy } from '../../../src/core/policy';
import { severityOf } from '../../../src/core/trim/severity';
import { trimLog } from '../../../src/core/trim/log';
import type { Block } from '../../../src/core/types';

/** A block of the given kind and tokens (costs are the blocks' tokens: fill's defaults). */
function block(source: string, tokens: number, kind: Block['kind'] = 'document', score?: number): Block {
  return { id: source, kind, source, trust: 'project-document', priority: 10, mandatory: false, text: 'x', tokens, exact: true, meta: score === undefined ? {} : { relevance: { score, rank: 1, of: 1, reason: 'r' } } };
}

describe('the index has a budget of its own', () => {
  // 100 documents of 900 tokens that cannot fit 1 000 tokens, each with a 10-token index line, and a 300-token log.
  const docs = Array.from({ length: 100 }, (_, i) => block(`notes/n${String(i).padStart(3, '0')}.md`, 900, 'document', 1 - i / 1000));
  const log = { ...block('logs/app.log', 300, 'tool_result'), priority: 1 };
  const base = { candidates: [...docs, log], groups: [], available: 1000, toolResultsCap: 1500, listCost: (b: Block) => (b.kind === 'document' ? 10 : 0), listWrapper: 5 };

  it('without a budget every candidate holds its line: the 1 000 lines eat the room and the log is not sent', () => {
    const out = fill(base);
    assert.equal(out.value.selected.length, 0);
    assert.equal(out.value.unlisted.length, 0);
    assert.match(String(out.decisions.rejected?.[0].reason), /^not sent: over the budget \(0 tokens left/);
  });

  it('with a budget of 150 tokens: 15 lines listed (the most relevant), 85 left out, the log sent, the rest goes back', () => {
    const out = fill({ ...base, indexBudget: 150 });
    assert.deepEqual(out.value.selected.map((b) => b.source), ['logs/app.log']);
    assert.equal(out.value.overflow.length, 100);
    assert.equal(out.value.unlisted.length, 85);
    assert.equal(out.value.unlisted[0].source, 'notes/n015.md');
    // 1 000 − 150 lines − 5 (the index element) − 300 (the log) = 545 left for tool output to grow into.
    assert.equal(out.value.left, 545);
    const left = out.decisions.indexed?.find((d) => d.source === 'notes/n099.md');
    assert.match(String(left?.reason), /not listed either: the index's budget \(150 tokens\) was spent on documents ranked before it \(priority × relevance\)$/);
  });

  it('the budget is 15 % of the flexible zone, at most 1 500 tokens', () => {
    assert.equal(indexBudgetOf(1000), 150);
    assert.equal(indexBudgetOf(10507), 1500);
  });

  it('disclosed documents take their lines by relevance; the index says how many it left out', () => {
    const disclosed = [block('b.md', 40, 'document', 0.2), block('a.md', 40, 'document', 0.5), block('c.md', 40, 'document', 0.1)];
    const within = withinIndexBudget(disclosed, 25, () => 12);
    assert.deepEqual(within.listed.map((b) => b.source), ['a.md', 'b.md']);
    assert.deepEqual(within.left.map((b) => b.source), ['c.md']);
    assert.equal(within.spent, 24);
    const index = indexBlock(defaultPolicy(), within.listed, undefined, { count: 1, budget: 25 })!;
    assert.deepEqual(index.meta.listed, ['a.md', 'b.md']);
    assert.equal(index.meta.leftOut, 1);
    assert.match(index.text, /<left-out>1 more candidate document \(ranked below those listed\) left out of this index, over its budget of 25 tokens; read_document fetches any of them by path<\/left-out>/);
    const [d] = leftOutOfIndex([{ source: 'c.md', kind: 'document', reason: 'below the relevance threshold 30%: in the index (mentions x)', tokens: 40 }], within.left, 25);
    assert.equal(d.reason, 'below the relevance threshold 30%: left out of the index: its budget of 25 tokens was spent on documents ranked higher (by relevance, then path) (mentions x)');
  });
});

describe('the evidence zone grows into the room the fill left', () => {
  const trimmed = { ...block('logs/app.log', 1500, 'tool_result'), meta: { trim: { trimmed: true, original_lines: 1, retained_lines: 1, original_tokens: 1, original_tokens_exact: true, tokens: 1500, reference: 'logs/app.log', format: 'log' } } } as Block;
  it('by the free room less 3 % and 16 tokens; not when nothing was trimmed or under 64 tokens are free', () => {
    assert.equal(grownZone(1500, 8677, [trimmed]), 1500 + Math.floor(8677 * 0.97) - 16);
    assert.equal(grownZone(1500, 8677, [block('logs/app.log', 1500, 'tool_result')]), undefined);
    assert.equal(grownZone(1500, 80, [trimmed]), undefined);
  });
});

describe('log severity on real shapes', () => {
  it('high, low and threshold alone are no warning; too high, high latency and threshold exceeded are', () => {
    for (const l of ['Jun 14 15:16:01 combo kernel: Using tsc for high-res timesource', 'Jun 14 15:16:01 combo kernel: 0MB HIGHMEM available.', 'Jun 14 15:16:01 combo kernel: zapping low mappings.']) assert.equal(severityOf(l), 'info', l);
    for (const l of ['db1 monitor: CPU load is too high', 'gw: high latency on upstream', 'disk threshold exceeded on /var']) assert.equal(severityOf(l), 'warn', l);
  });

  it('a log whose level is a column of its own (tab, pipe, CSV), not leading, keeps its error template', () => {
    const shapes = [
      (lv: string, i: number) => `2016-09-28 04:30:30\t${lv}\tCBS\tService state ${i}`,
      (lv: string, i: number) => `2016-09-28 04:30:30 | ${lv} | CBS | Service state ${i}`,
      (lv: string, i: number) => `${lv === 'Info' ? 'Information' : lv},9/28/2016 4:30:30 AM,Service Control Manager,7036,None,The Foo service state ${i}`,
    ];
    for (const shape of shapes) {
      const lines = Array.from({ length: 3000 }, (_, i) => shape(i % 500 === 7 ? 'Error' : 'Info', i));
      const out = trimLog(() => lines, { maxTokens: 400, count: (t) => Math.ceil(t.length / 4), windowLines: 2, maxStackLines: 10, headLines: 5, tailLines: 5, maxLineChars: 200, jsonRecords: 5 });
      assert.doesNotMatch(out.note, /no error or warning found/, shape('Error', 7));
      assert.match(out.note, /^kept 1 of 1 error template/, shape('Error', 7));
    }
  });
});
