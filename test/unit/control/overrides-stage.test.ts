import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyOverrides, IncludeDoesNotFit, refuseOverflowingIncludes} from '../../../src/core/chain/overrides';
import type { Pruned } from '../../../src/core/chain/prune';
import type { StageResult } from '../../../src/core/types';
import { block } from '../helpers';

const system = block('system_instructions', 'builtin:system', 'You are careful.');
const pin = block('pinned', 'notes.md', 'pinned text');
const kept = block('document', 'docs/kept.md', 'kept text', { priority: 40 });
const tool = block('tool_result', 'app.log', 'ERROR x', { priority: 100 });
const indexed = block('document', 'docs/adr/0007.md', 'an accepted ADR', { priority: 60 });
const rejected = block('document', 'docs/distractor.md', 'marketing', { priority: 40 });
const candidates = [system, pin, kept, tool, indexed, rejected];

function pruned(): StageResult<Pruned> {
  return {
    value: { kept: [system, pin, kept, tool], disclosed: [indexed], indexed: [{ source: indexed.source, kind: 'document', reason: 'below the relevance threshold 30%' }] },
    decisions: { rejected: [{ source: rejected.source, kind: 'document', reason: 'unrelated component' }], warnings: [] },
  };
}

describe('overrides stage', () => {
  it('returns the prune result unchanged without overrides', () => {
    const p = pruned();
    assert.equal(applyOverrides(p, candidates, undefined), p);
    assert.equal(applyOverrides(p, candidates, { include: [], exclude: [] }), p);
  });

  it('pulls an indexed and a rejected document in at the top flexible priority, marked included', () => {
    const out = applyOverrides(pruned(), candidates, { include: ['docs/adr/0007.md', 'docs/distractor.md'], exclude: [] });
    assert.deepEqual(out.value.kept.map((b) => `${b.source}:${b.priority}:${b.meta.override ?? '-'}`), [
      'builtin:system:0:-', 'notes.md:0:-', 'docs/kept.md:40:-', 'app.log:100:-', 'docs/adr/0007.md:101:include', 'docs/distractor.md:101:include',
    ]);
    assert.deepEqual(out.value.disclosed, []);
    assert.deepEqual(out.value.indexed, []);
    assert.deepEqual(out.decisions.rejected, []);
    assert.deepEqual(out.decisions.warnings, []);
  });

  it('removes an excluded block with the reason "excluded by you", once, whatever prune said', () => {
    const out = applyOverrides(pruned(), candidates, { include: [], exclude: ['docs/kept.md', 'docs/adr/0007.md', 'docs/distractor.md'] });
    assert.deepEqual(out.value.kept.map((b) => b.source), ['builtin:system', 'notes.md', 'app.log']);
    assert.deepEqual(out.value.disclosed, []);
    assert.deepEqual(out.value.indexed, []);
    assert.deepEqual(out.decisions.rejected?.map((d) => `${d.source}: ${d.reason}`), [
      'docs/kept.md: excluded by you', 'docs/adr/0007.md: excluded by you', 'docs/distractor.md: excluded by you',
    ]);
  });

  it('never excludes a pin, and warns about overrides that name nothing', () => {
    const out = applyOverrides(pruned(), candidates, { include: ['docs/gone.md'], exclude: ['notes.md'] });
    assert.deepEqual(out.value.kept.map((b) => b.source), ['builtin:system', 'notes.md', 'docs/kept.md', 'app.log']);
    assert.deepEqual(out.decisions.warnings?.map((w) => `${w.source}: ${w.message}`), [
      'notes.md: excluded by you, but it is pinned: it stays in the request; unpin it to leave it out',
      'docs/gone.md: included by you, but it is not a document, decision, source file or tool output of this workspace: no effect',
    ]);
  });

  it('says how a protected rule or the task leaves the request, since an exclude cannot: never "unpin" for what is not pinned', () => {
    const rule = { ...block('agents_md', 'AGENTS.md', 'rules'), mandatory: true };
    const task = { ...block('current_task', 'ticket.md', 'why?'), mandatory: true };
    const p = pruned();
    const out = applyOverrides({ ...p, value: { ...p.value, kept: [...p.value.kept, rule, task] } }, [...candidates, rule, task], { include: [], exclude: ['AGENTS.md', 'ticket.md'] });
    assert.deepEqual(out.decisions.warnings?.map((w) => `${w.source}: ${w.message}`), [
      "AGENTS.md: excluded by you, but it is protected (agents_md): it stays in the request; shorten it, or take agents_md out of the policy's mandatory list to leave it out",
      'ticket.md: excluded by you, but it is protected (current_task): it stays in the request; the task is always sent',
    ]);
  });

  it('includes every file below a folder ending in /', () => {
    const out = applyOverrides(pruned(), candidates, { include: ['docs/'], exclude: [] });
    assert.deepEqual(out.value.kept.filter((b) => b.meta.override).map((b) => b.source), ['docs/kept.md', 'docs/adr/0007.md', 'docs/distractor.md']);
  });

  it('refuses the call when an included block does not fit, naming it like an overflowing pin', () => {
    const big = { ...indexed, tokens: 900, meta: { override: 'include' as const } };
    assert.doesNotThrow(() => refuseOverflowingIncludes([kept], [system], 1000, 300));
    assert.throws(
      () => refuseOverflowingIncludes([kept, big], [system], 1000, 300),
      (e: unknown) => {
        assert.ok(e instanceof IncludeDoesNotFit);
        assert.equal(e.mandatoryTokens, 1200);
        assert.deepEqual(e.blocks.map((b) => b.source), ['builtin:system', 'docs/adr/0007.md']);
        assert.equal(e.message.split('\n')[0], 'ContextBudgetExceeded: included by you but does not fit: docs/adr/0007.md (900 tokens); 700 tokens are left once the protected blocks (300 tokens) are placed, max_input is 1000.');
        return true;
      },
    );
  });
});
