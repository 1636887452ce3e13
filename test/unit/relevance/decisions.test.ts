import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionSection, fill, weight } from '../../../src/core/chain/fill';
import { parseStatus } from '../../../src/core/sources/adr';
import { block } from '../helpers';

const ADR = ['# 7. Lock seats', '', '## Status', '', 'Accepted', '', '## Context', '', 'Long context. '.repeat(200), '', '## Decision', '', 'Take a row lock with SELECT FOR UPDATE.', '', '## Consequences', '', 'Short transactions.'].join('\n');

describe('decisions: status forms and fill', () => {
  it('reads statuses written as links, "on hold", and in any letter case', () => {
    assert.equal(parseStatus('[Deprecated](0011-oauth.md)').status, 'deprecated');
    assert.deepEqual(parseStatus('[Superseded by ADR-7](0007-x.md)'), { status: 'superseded', refs: [{ text: 'ADR-7' }], supersedes: [] });
    assert.equal(parseStatus('On Hold').status, 'on hold');
    assert.equal(parseStatus('on-hold until Q3').status, 'on hold');
    assert.equal(parseStatus('ACCEPTED').status, 'accepted');
    assert.equal(parseStatus('"Deprecated"').status, 'deprecated');
  });

  it('a decision that does not fit whole is sent as its decision section, saying so', () => {
    const adr = block('decision', 'doc/adr/0007-lock-seats.md', ADR, { meta: { title: '7. Lock seats', status: 'accepted', relevance: { score: 1, rank: 1, of: 3, reason: 'mentions seat' } } });
    const section = decisionSection(adr)!;
    assert.equal(section.text, '# 7. Lock seats\n\n(decision section only, lines 11-14 of 17; read_document("doc/adr/0007-lock-seats.md") returns the whole record)\n\n## Decision\n\nTake a row lock with SELECT FOR UPDATE.');
    const out = fill({ candidates: [adr], groups: [], available: 100, toolResultsCap: 1500 });
    assert.deepEqual(out.value.selected.map((b) => [b.source, b.meta.excerpt]), [['doc/adr/0007-lock-seats.md', `decision section only (the whole record is ${adr.tokens} tokens)`]]);
    assert.deepEqual(fill({ candidates: [adr], groups: [], available: 10_000, toolResultsCap: 1500 }).value.selected[0].text, ADR);
  });

  it('fills by priority × relevance; a priority the policy set counts whole', () => {
    const rel = (score: number, prioritized?: boolean) => ({ relevance: { score, rank: 1, of: 1, reason: 'r', ...(prioritized ? { prioritized } : {}) } });
    const a = block('document', 'a.md', 'a', { priority: 40, meta: rel(0.4) });
    const b = block('decision', 'b.md', 'b', { priority: 60, meta: rel(0.5) });
    const c = block('document', 'c.md', 'c', { priority: 30, meta: rel(0.2, true) });
    assert.deepEqual([weight(a), weight(b), weight(c)], [16, 30, 30]);
    assert.deepEqual(fill({ candidates: [a, b, c], groups: [], available: 1000, toolResultsCap: 1500 }).value.selected.map((x) => x.source), ['b.md', 'c.md', 'a.md']);
  });
});
