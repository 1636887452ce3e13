import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionOf, diffDecisions } from '../../../src/core/compare/diff';
import type { Decision } from '../../../src/core/types';
import { manifestOf } from './fixture';

const log = (tokens: number, retained: number): Decision => ({ source: 'application.log', kind: 'tool_result', reason: 'error lines kept', original_tokens: 396938, original_lines: 5543, retained_lines: retained, tokens });
const sel = (source: string, tokens: number, reason = 'candidate, priority 30'): Decision => ({ source, kind: 'document', reason, tokens });

describe('decisions diff', () => {
  it('names what one variant loaded and the other did not, with each side\'s reason; sizes after verdicts; equal sources counted', () => {
    const a = manifestOf({
      selected: [sel('ticket.md', 365, 'mandatory (current_task)'), sel('application.log', 1299), sel('docs/architecture.md', 6436)],
      trimmed: [log(1299, 8)],
      rejected: [{ source: 'docs/marketing-notes.md', kind: 'document', reason: 'unrelated component' }],
    });
    const b = manifestOf({
      selected: [sel('ticket.md', 365, 'mandatory (current_task)'), sel('application.log', 269)],
      trimmed: [log(269, 2)],
      indexed: [{ source: 'docs/architecture.md', kind: 'document', reason: 'no component: disclosed in the index, available on demand', tokens: 6436 }],
      offloaded: [{ source: 'docs/marketing-notes.md', kind: 'document', reason: 'over 6 000 tokens' }],
    });
    const diff = diffDecisions(['full', 'lean'], [a, b]);
    assert.deepEqual(diff.variants, ['full', 'lean']);
    assert.equal(diff.same, 1, 'ticket.md is the same in both');
    assert.deepEqual(
      diff.entries.map((e) => [e.change, e.source, e.variants.map((v) => `${v.verdict} ${v.tokens}`)]),
      [
        ['loaded', 'docs/architecture.md', ['selected 6436', 'indexed 0']],
        ['verdict', 'docs/marketing-notes.md', ['rejected 0', 'offloaded 0']],
        ['tokens', 'application.log', ['trimmed 1299', 'trimmed 269']],
      ],
    );
    assert.equal(diff.entries[0].variants[1].reason, 'no component: disclosed in the index, available on demand');
    assert.equal(diff.entries[2].variants[0].reason, '396\u202f938 → 1\u202f299 tokens, 8 of 5\u202f543 lines: error lines kept');
    assert.equal(diff.entries[2].variants[1].reason, '396\u202f938 → 269 tokens, 2 of 5\u202f543 lines: error lines kept');
  });

  it('an original size that is an estimate is marked ~ in the reason', () => {
    const estimated: Decision = { ...log(269, 2), original_tokens: 398512, original_tokens_exact: false };
    const diff = diffDecisions(['full', 'lean'], [manifestOf({ selected: [sel('application.log', 1299)], trimmed: [log(1299, 8)] }), manifestOf({ selected: [sel('application.log', 269)], trimmed: [estimated] })]);
    assert.deepEqual(diff.entries.map((e) => e.variants.map((v) => v.reason)), [['396\u202f938 → 1\u202f299 tokens, 8 of 5\u202f543 lines: error lines kept', '~398\u202f512 → 269 tokens, 2 of 5\u202f543 lines: error lines kept']]);
  });

  it('a source only one manifest mentions is "absent" in the other; identical manifests differ nowhere', () => {
    const a = manifestOf({ selected: [sel('docs/runbook.md', 880)] });
    const b = manifestOf({});
    assert.deepEqual(decisionOf(b, 'docs/runbook.md'), { verdict: 'absent', tokens: 0, reason: 'no decision names it' });
    const diff = diffDecisions(['a', 'b'], [a, b]);
    assert.deepEqual(diff.entries.map((e) => [e.change, e.source]), [['loaded', 'docs/runbook.md']]);
    assert.deepEqual(diffDecisions(['a', 'a2'], [a, a]), { variants: ['a', 'a2'], entries: [], same: 1 });
  });

  it('a document the ladder reduced to its summary is "summarized", and a ladder drop counts as rejected with its step', () => {
    const a = manifestOf({ selected: [sel('docs/adr/adr-012.md', 120, 'applicable decision (accepted), summary only')] });
    const b = manifestOf({ degraded: [{ source: 'docs/adr/adr-012.md', kind: 'decision', reason: 'dropped: lowest priority document' }] });
    const diff = diffDecisions(['a', 'b'], [a, b]);
    assert.deepEqual(diff.entries[0].variants, [
      { verdict: 'summarized', tokens: 120, reason: 'applicable decision (accepted), summary only' },
      { verdict: 'rejected', tokens: 0, reason: 'dropped: lowest priority document' },
    ]);
  });

  it('three variants: an entry lists every variant in order', () => {
    const diff = diffDecisions(['a', 'b', 'c'], [manifestOf({ selected: [sel('x.md', 10)] }), manifestOf({ selected: [sel('x.md', 10)] }), manifestOf({ selected: [sel('x.md', 7)] })]);
    assert.deepEqual(diff.entries.map((e) => e.variants.map((v) => v.tokens)), [[10, 10, 7]]);
    assert.equal(diff.entries[0].change, 'tokens');
  });
});
