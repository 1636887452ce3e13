import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fill } from '../../../src/core/chain/fill';
import { indexBlock } from '../../../src/core/chain/index-block';
import { defaultPolicy } from '../../../src/core/policy';
import { deriveSections } from '../../../src/core/report/derive';
import { buildManifest } from '../../../src/core/report/manifest';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { emptyDecisions, mergeDecisions } from '../../../src/core/types';
import { block, EXAMPLE } from '../helpers';

const doc = (name: string, tokens = 100) => ({ ...block('document', `docs/${name}.md`, `${name} `.repeat(tokens)), tokens });

describe('the manifest is derived from the blocks sent (report/derive.ts, report/manifest.ts)', () => {
  it('"indexed" only for paths the sent index lists; the rest of the index goes to rejected with the ladder step that dropped it', () => {
    const [a, b] = [doc('a'), doc('b')];
    const index = indexBlock(defaultPolicy(), [a, b])!;
    assert.deepEqual(index.meta.listed, ['docs/a.md', 'docs/b.md']);
    const decisions = mergeDecisions({ indexed: [{ source: a.source, kind: 'document', reason: 'did not fit the budget (10 tokens left)', tokens: 100 }, { source: b.source, kind: 'document', reason: 'below the relevance threshold 30%: in the index (x)', tokens: 100 }] });
    const withIndex = deriveSections([index], decisions);
    assert.deepEqual(withIndex.indexed.map((d) => d.reason), ['did not fit the budget (10 tokens left): in the index, available on demand', 'below the relevance threshold 30%: in the index (x)']);
    assert.deepEqual(withIndex.rejected, []);
    const dropped = mergeDecisions(decisions, { degraded: [{ source: 'builtin:index', kind: 'index', reason: 'ladder 4: dropped the lowest-priority block: the index of documents available on demand', ladder: 4, dropped: true, tokens: 40 }] });
    const without = deriveSections([], dropped);
    assert.deepEqual(without.indexed, []);
    assert.deepEqual(without.rejected.map((d) => [d.source, d.reason]), [
      ['docs/a.md', 'not in this request: the index that listed it was dropped (ladder 4) to fit max_input (it would have said: did not fit the budget (10 tokens left))'],
      ['docs/b.md', 'not in this request: the index that listed it was dropped (ladder 4) to fit max_input (it would have said: below the relevance threshold 30%: in the index (x))'],
      ['builtin:index', 'not in this request: ladder 4: dropped the lowest-priority block: the index of documents available on demand to fit max_input'],
    ]);
  });

  it('"trimmed" carries the figures and the note of the block sent; a trimmed result that was not sent is rejected, once', () => {
    const trim = { trimmed: true as const, original_lines: 500, retained_lines: 12, original_tokens: 9000, original_tokens_exact: true, tokens: 300, reference: 'app.log', format: 'log' };
    const sent = block('tool_result', 'app.log', 'ERROR x', { meta: { trim, retrimNote: 'kept 1 of 3 error templates' } });
    const decisions = mergeDecisions({
      trimmed: [{ source: 'app.log', kind: 'tool_result', reason: 'kept 3 of 3 error templates', ...trim, retained_lines: 40, tokens: 900, templates: { errors: 3 } }, { source: 'other.log', kind: 'tool_result', reason: 'kept all', tokens: 50 }],
      rejected: [{ source: 'other.log', kind: 'tool_result', reason: 'not sent: over the budget (10 tokens left, 50 needed even trimmed); the full output stays at other.log', tokens: 50 }],
    });
    const d = deriveSections([sent], decisions);
    assert.equal(d.trimmed.length, 1);
    assert.equal(d.trimmed[0].reason, 'kept 1 of 3 error templates');
    assert.equal(d.trimmed[0].retained_lines, 12);
    assert.equal(d.trimmed[0].tokens, sent.tokens);
    assert.equal(d.trimmed[0].templates, undefined, 'the first trim\'s template counts are not those of the text sent');
    assert.deepEqual(d.rejected.map((r) => r.source), ['other.log']);
    assert.match(d.rejected[0].reason, /over the budget/);
  });

  it('a block the user included says so; the budget has overhead and free room', () => {
    const snapshot = loadSnapshot({ root: EXAMPLE, task: 'x', changes: NO_GIT });
    const mine = { ...doc('mine'), meta: { override: 'include' as const } };
    const m = buildManifest({
      snapshot, blocks: [mine], decisions: emptyDecisions(), session: { stored: 0, kept_raw: 0, compacted: 0, omitted: 0, store: { kind: 'workspace', path: '.context/session.jsonl' } },
      budget: { window: 1000, output_reserve: 200, margin: 100, max_input: 700, mandatory: 0, final: 130 },
      model: 'gpt-4o', encoding: 'o200k_base', approximate: false, shape: 'openai', bytes: 1, now: () => new Date(0),
    });
    assert.equal(m.selected[0].reason, 'included by you');
    assert.deepEqual([m.budget.overhead, m.budget.free], [30, 570]);
  });

  it('fill names the limit that bound a tool result: the zone cap or the whole budget; it shrinks one to fit before giving up', () => {
    const log = block('tool_result', 'app.log', 'ERROR boom\n'.repeat(60));
    const zone = fill({ candidates: [log], groups: [], available: 5000, toolResultsCap: 20 });
    assert.match(zone.decisions.rejected![0].reason, /^not sent: over the tool-results zone cap \(20 tokens left in the zone, [\d\u202f]+ needed even trimmed\)/);
    const budget = fill({ candidates: [log], groups: [], available: 20, toolResultsCap: 5000 });
    assert.match(budget.decisions.rejected![0].reason, /^not sent: over the budget \(20 tokens left, [\d\u202f]+ needed even trimmed\)/);
    const small = { ...log, text: 'ERROR boom', tokens: 15 };
    const shrunk = fill({ candidates: [log], groups: [], available: 20, toolResultsCap: 5000, shrink: (_b, max) => (max >= 15 ? small : undefined) });
    assert.deepEqual(shrunk.value.selected, [small]);
    assert.deepEqual(shrunk.decisions.rejected, []);
    // Shrunk but still too big: the reason gives what the trimmed form needs, not the whole output's size.
    const tooBig = { ...log, text: 'ERROR boom ERROR boom', tokens: 30 };
    const still = fill({ candidates: [log], groups: [], available: 20, toolResultsCap: 5000, shrink: () => tooBig });
    assert.match(still.decisions.rejected![0].reason, /^not sent: over the budget \(20 tokens left, \d+ needed even trimmed\)/);
    const needed = Number(/, (\d+) needed/.exec(still.decisions.rejected![0].reason)![1]);
    assert.ok(needed < log.tokens, `${needed} needed, the whole output is ${log.tokens}`);
  });
});
