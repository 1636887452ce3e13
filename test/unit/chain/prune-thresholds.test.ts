import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { describe, it } from 'node:test';
import { indexBlock } from '../../../src/core/chain/index-block';
import { prune, type RelevanceContext } from '../../../src/core/chain/prune';
import { defaultPolicy } from '../../../src/core/policy';
import type { Relevance } from '../../../src/core/relevance/rank';
import { block } from '../helpers';

const rel = (score: number, rank: number, words: string[], extra: Partial<Relevance> = {}): Relevance => ({ score, rank, of: 4, words, signals: [], named: false, ...extra });
const context = (relevance: Record<string, Relevance>): RelevanceContext => ({ components: [], relevance: new Map(Object.entries(relevance)), settings: defaultPolicy().relevance, prioritized: () => false });

describe('prune: thresholds that cannot hide the best match', () => {
  const best = block('document', 'docs/licence-notes.md', 'x');
  const top = block('decision', 'docs/adr/0008-add-status-field.md', 'x', { meta: { status: 'unknown', id: 'ADR-0008' } });
  const floor = block('document', 'docs/guide.md', 'x');
  const none = block('document', 'docs/other.md', 'x');

  it('below the relative index threshold, the best-ranked decision and a file at the absolute floor are indexed; the rest is rejected', () => {
    const out = prune([best, top, floor, none], context({
      'docs/licence-notes.md': rel(1, 1, ['ask', 'madr']),
      'docs/adr/0008-add-status-field.md': rel(0.08, 2, ['status'], { topDecision: true }),
      'docs/guide.md': rel(0.05, 3, ['record', 'status'], { floor: true }),
      'docs/other.md': rel(0.05, 4, ['status']),
    }));
    assert.deepEqual(out.value.kept.map((b) => b.source), ['docs/licence-notes.md']);
    assert.deepEqual(out.value.indexed!.map((d) => [d.source, d.reason.replace(/ \(.*$/, '')]), [
      ['docs/adr/0008-add-status-field.md', 'below the index threshold 12% but the best-ranked decision: in the index'],
      ['docs/guide.md', "below the index threshold 12% but its text has half of the task's words: in the index"],
    ]);
    assert.deepEqual(out.decisions.rejected!.map((d) => d.source), ['docs/other.md']);
  });

  it('a retired decision the task names or matches best is rejected and named in <retired-decisions> with its status and successor, never an index entry (read_document refuses it); otherwise rejected as before', () => {
    const old = block('decision', 'adr/0004-use-node.md', 'x', { meta: { status: 'superseded', supersededBy: 'ADR-0019', id: 'ADR-0004', title: 'Use node' } });
    const held = block('decision', 'adr/0003-own-tools.md', 'x', { meta: { status: 'on hold', id: 'ADR-0003', title: 'Own tools' } });
    const asked = prune([old, held], context({ 'adr/0004-use-node.md': rel(1, 1, ['bash', 'node']), 'adr/0003-own-tools.md': rel(0.5, 2, ['tools'], { named: true }) }));
    assert.deepEqual(asked.value.kept, []);
    assert.deepEqual(asked.value.disclosed, []);
    assert.deepEqual(asked.value.indexed ?? [], []);
    assert.deepEqual(asked.decisions.rejected!.map((d) => d.reason.replace(/ \(.*$/, '')), [
      'superseded by ADR-0019: not in force, not loaded; named in <retired-decisions> with its status because the task asks about it',
      'on hold decision: not in force, not loaded; named in <retired-decisions> with its status because the task asks about it',
    ]);
    assert.deepEqual(asked.value.retired!.map((b) => [b.source, b.meta.status]), [['adr/0004-use-node.md', 'superseded'], ['adr/0003-own-tools.md', 'on hold']]);
    assert.equal(indexBlock(defaultPolicy(), asked.value.disclosed), undefined);
    const named = indexBlock(defaultPolicy(), asked.value.disclosed, undefined, undefined, asked.value.retired)!;
    assert.deepEqual(named.meta.listed, []);
    assert.equal(
      named.text,
      '<retired-decisions note="the task asks about these; not in force and not loaded (read_document does not fetch them): follow their successor">\n' +
        '  <decision path="adr/0003-own-tools.md" title="Own tools" status="on hold, not in force" />\n' +
        '  <decision path="adr/0004-use-node.md" title="Use node" status="superseded by ADR-0019, not in force" />\n' +
        '</retired-decisions>',
    );
    // Second-ranked and not named: the task is about something else; rejected with its reason, as the example's ADR-008.
    const other = prune([old], context({ 'adr/0004-use-node.md': rel(0.8, 2, ['bash', 'node']) }));
    assert.deepEqual(other.decisions.rejected!.map((d) => d.reason), ['superseded by ADR-0019']);
    assert.equal(other.value.retired, undefined);
  });

  it('the index says "status unknown" for a record without a readable status, never "accepted"', () => {
    assert.match(indexBlock(defaultPolicy(), [top])!.text, /status="status unknown"/);
  });
});

describe('prune: the ranked blocks of a large workspace', () => {
  it('share one hidden class: a relevance added to 300 metas does not give each its own (V8 11.3 does for `{ ...meta, relevance }`)', () => {
    v8.setFlagsFromString('--allow-natives-syntax');
    const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const docs = Array.from({ length: 300 }, (_, i) => block('document', `notes/note-${i}.md`, 'x', { meta: { title: `Note ${i}`, summary: 's', tags: ['t'] } }));
    const out = prune(docs, context(Object.fromEntries(docs.map((d, i) => [d.source, rel(i === 0 ? 1 : 0.2, i + 1, ['note'])]))));
    const metas = [...out.value.kept, ...out.value.disclosed].map((b) => b.meta);
    assert.equal(metas.length, 300);
    assert.ok(metas.every((m) => m.relevance !== undefined));
    const shapes: object[] = [];
    for (const m of metas) if (!shapes.some((s) => sameShape(s, m))) shapes.push(m);
    assert.ok(shapes.length <= 2, `${shapes.length} hidden classes for 300 metas`);
  });
});
