import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RelevanceIndex, type IndexedDoc } from '../../../src/core/relevance/index';
import { fcOptions } from '../property-harness';
import { MiniSearchIndex } from './minisearch-reference';

const WORDS = ['payment', 'payments', 'paymentMethod', 'retry', 'retries', 'timeout', 'gateway', 'ledger', 'the', 'and', 'status', 'accepted', 'licence', 'license', 'HTTPServer', 'adding', 'ad', 'décision', 'Größe', '中文', 'v2', '2026', 'x', 'redis', 'lock', 'locks', 'Lock'];

const text = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((w) => w.join(' '));
const docArb: fc.Arbitrary<IndexedDoc> = fc.record({
  path: fc.tuple(fc.constantFrom('docs', 'docs/adr', 'src/payment', 'notes'), fc.constantFrom(...WORDS.slice(0, 8)), fc.nat(20), fc.constantFrom('.md', '.ts', '')).map(([d, w, n, e]) => `${d}/${w}-${n}${e}`),
  title: text(4),
  headings: fc.array(text(3), { maxLength: 3 }),
  summary: fc.option(text(6), { nil: undefined }),
  tags: fc.option(fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }), { nil: undefined }),
  body: text(40),
});

/** Scores within a relative 1e-11 (ours are rounded to 12 significant digits, and the average field length is exact where MiniSearch keeps a running one), same words. */
function assertSame(ours: ReturnType<RelevanceIndex['match']>, ref: ReturnType<MiniSearchIndex['match']>): void {
  assert.deepEqual([...ours.keys()].sort(), [...ref.keys()].sort());
  for (const [p, m] of ref) {
    const o = ours.get(p)!;
    assert.deepEqual(o.words, m.words, p);
    assert.ok(Math.abs(o.score - m.score) <= 1e-11 * Math.max(1, Math.abs(m.score)), `${p}: ${o.score} vs ${m.score}`);
  }
}

describe('the forward index scores as the MiniSearch index it replaced', () => {
  it('same documents matched, same words, same scores, on generated documents and queries (edits and deletes included)', (t) => {
    const ops = fc.array(fc.oneof(docArb.map((d) => ({ put: d })), fc.nat(30).map((i) => ({ drop: i }))), { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 25 }), ops, fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), (docs, edits, query) => {
        const ours = new RelevanceIndex();
        const ref = new MiniSearchIndex();
        for (const d of docs) {
          ours.upsert(d);
          ref.upsert(d);
        }
        const paths = [...new Set(docs.map((d) => d.path))];
        for (const e of edits) {
          if ('put' in e) {
            ours.upsert(e.put);
            ref.upsert(e.put);
          } else {
            ours.remove(paths[e.drop % paths.length]);
            ref.remove(paths[e.drop % paths.length]);
          }
        }
        const weight = (w: string) => (w === 'paymentMethod' || w === 'HTTPServer' ? 2 : 1);
        assertSame(ours.match(query, weight), ref.match(query, weight));
      }),
      fcOptions(t),
    );
  });

  it('an index asked again after each edit answers as a new index asked once (the hits it keeps never go stale)', (t) => {
    const step = fc.oneof(docArb.map((d) => ({ put: d })), fc.nat(30).map((i) => ({ drop: i })), fc.nat(1).map((q) => ({ ask: q })));
    const queryArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 20 }), fc.array(step, { maxLength: 16 }), queryArb, queryArb, (docs, steps, q0, q1) => {
        const kept = new RelevanceIndex();
        const live = new Map<string, IndexedDoc>();
        const put = (d: IndexedDoc) => {
          kept.upsert(d);
          live.delete(d.path);
          live.set(d.path, d);
        };
        docs.forEach(put);
        const paths = [...new Set(docs.map((d) => d.path))];
        const sorted = (m: ReturnType<RelevanceIndex['match']>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
        let query = q0;
        for (const s of steps) {
          if ('put' in s) put(s.put);
          else if ('drop' in s) {
            kept.remove(paths[s.drop % paths.length]);
            live.delete(paths[s.drop % paths.length]);
          } else query = s.ask === 0 ? q0 : q1;
          const weight = (w: string) => (w === 'paymentMethod' ? 2 : 1);
          assert.deepEqual(sorted(kept.match(query, weight)), sorted(new RelevanceIndex([...live.values()]).match(query, weight)));
        }
      }),
      fcOptions(t),
    );
  });

  it('a term no document had, then one has: the next query finds it', () => {
    const index = new RelevanceIndex([{ path: 'docs/a.md', title: 'Payments', body: 'payment retries' }]);
    for (let i = 0; i < 3; i++) assert.deepEqual([...index.match(['payment', 'ledger']).keys()], ['docs/a.md']);
    index.upsert({ path: 'docs/b.md', title: 'Ledger', body: 'the ledger export' });
    assert.deepEqual([...index.match(['payment', 'ledger']).keys()].sort(), ['docs/a.md', 'docs/b.md']);
    index.upsert({ path: 'docs/a.md', title: 'Payments', body: 'payment retries and the ledger' });
    assert.deepEqual(index.match(['payment', 'ledger']).get('docs/a.md')?.words, ['payment', 'ledger']);
  });

  it('documents with the same figures under other terms tie exactly, whatever order their sums were taken in', () => {
    // Each note has two of the three task words in its title and all three in its body: equal scores in exact arithmetic.
    const topics = ['payment', 'gateway', 'retry'];
    const docs: IndexedDoc[] = [];
    for (let i = 0; i < 30; i++) {
      const a = topics[i % 3];
      const b = topics[(i * 7 + 1) % 3] === a ? topics[(i + 1) % 3] : topics[(i * 7 + 1) % 3];
      docs.push({ path: `notes/note-${String(i).padStart(2, '0')}.md`, title: `Note ${i}: ${a} and ${b}`, body: `Meeting note ${i} about the ${a} service and the ${b} flow. The payment gateway retry came up.` });
    }
    const scores = new Set([...new RelevanceIndex(docs).match(topics).values()].map((m) => m.score));
    assert.equal(scores.size, 1, [...scores].join(', '));
  });

  it('orders the example\'s hits as before: same best match and ranks', () => {
    const docs: IndexedDoc[] = [
      { path: 'docs/adr/0001-retry.md', title: 'Retry payments with backoff', headings: ['Status', 'Decision'], body: 'Payments are retried three times with exponential backoff. The gateway timeout is two seconds.' },
      { path: 'docs/runbook.md', title: 'Runbook', body: 'When the ledger times out, restart the settlement export. Payment retries are logged.' },
      { path: 'docs/offsite.md', title: 'Team offsite', body: 'Two days in Porto.' },
    ];
    const query = ['payment', 'retry', 'timeout', 'gateway'];
    const order = (m: Map<string, { score: number }>) => [...m].sort((a, b) => b[1].score - a[1].score).map(([p]) => p);
    assert.deepEqual(order(new RelevanceIndex(docs).match(query)), ['docs/adr/0001-retry.md', 'docs/runbook.md']);
    assert.deepEqual(order(new RelevanceIndex(docs).match(query)), order(new MiniSearchIndex(docs).match(query)));
  });
});
