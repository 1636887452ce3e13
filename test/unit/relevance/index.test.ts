import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RelevanceIndex } from '../../../src/core/relevance/index';

const doc = (path: string, title: string, body: string) => ({ path, title, body });

describe('the relevance index', () => {
  it('matches identifiers to prose and prose to identifiers, stemmed: paymentMethod ↔ "payment methods"', () => {
    const index = new RelevanceIndex([
      doc('a.md', 'Accepted payment methods', 'Cards and vouchers are the payment methods we accept.'),
      doc('b.md', 'Team lunch', 'Lunch on Friday.'),
      doc('c.ts', 'Controller', 'if (request.paymentMethod == null) throw new BadRequest();'),
    ]);
    const hits = index.match(['payment', 'method', 'lunches']);
    assert.deepEqual([...hits.keys()].sort(), ['a.md', 'b.md', 'c.ts']);
    assert.deepEqual(hits.get('a.md')!.words, ['payment', 'method']);
    assert.deepEqual(hits.get('c.ts')!.words, ['payment', 'method']);
    assert.deepEqual(hits.get('b.md')!.words, ['lunches']);
    assert.ok(hits.get('a.md')!.score > hits.get('b.md')!.score);
  });

  it('a kept index scores exactly like a fresh one after an edit and a delete (the editor and a send rank alike)', () => {
    const docs = [doc('a.md', 'Payment retries', 'retry payment timeout gateway'), doc('b.md', 'Runbook', 'payment rollback steps'), doc('c.md', 'Ledger', 'ledger entries')];
    const kept = new RelevanceIndex(docs);
    kept.upsert(doc('b.md', 'Runbook', 'payment rollback steps UNSAVED timeout timeout'));
    kept.upsert(doc('b.md', 'Runbook', 'payment rollback steps'));
    kept.upsert(doc('d.md', 'Scratch', 'payment timeout'));
    kept.remove('d.md');
    const fresh = new RelevanceIndex(docs);
    const words = ['payment', 'timeout', 'rollback'];
    assert.deepEqual([...kept.match(words)].sort(), [...fresh.match(words)].sort());
    assert.equal(kept.size, 3);
  });

  it('scores the same whatever the order documents came in, its word memo cleared on the way (over 2^18 distinct words)', () => {
    // 300 000 distinct words (`w0` … `w6hgf`, all terms) in one document: the memo starts again while the others come in.
    const many = doc('big.md', 'Word list', Array.from({ length: 300_000 }, (_, i) => `w${i.toString(36)}`).join(' ') + ' payment retries payment');
    const small = [doc('a.md', 'Payment retries', 'retry payment timeout gateway Payment'), doc('b.md', 'Runbook', 'payment rollback steps, the paymentGateway retry'), doc('c.md', 'Ledger', 'ledger entries w1 w2 w3')];
    const first = new RelevanceIndex([many, ...small]);
    const last = new RelevanceIndex([...small, many]);
    const between = new RelevanceIndex([small[0], many, small[1], small[2]]);
    const words = ['payment', 'retry', 'gateway', 'w2', 'wzz'];
    const expected = [...last.match(words)].sort();
    assert.deepEqual([...first.match(words)].sort(), expected);
    assert.deepEqual([...between.match(words)].sort(), expected);
    assert.deepEqual(expected.map(([p, m]) => [p, m.words]), [['a.md', ['payment', 'retry', 'gateway']], ['b.md', ['payment', 'retry', 'gateway']], ['big.md', ['payment', 'retry', 'w2', 'wzz']], ['c.md', ['w2']]]);
  });

  it('is updated file by file: upsert replaces, an unchanged upsert is a no-op, remove and retain drop', () => {
    const index = new RelevanceIndex([doc('a.md', 'Redis locks', 'lock carts'), doc('b.md', 'Kafka', 'events')]);
    assert.equal(index.size, 2);
    index.upsert(doc('a.md', 'Redis locks', 'lock carts'));
    assert.equal(index.size, 2);
    index.upsert(doc('a.md', 'Postgres', 'row level security'));
    assert.deepEqual([...index.match(['redis']).keys()], []);
    assert.deepEqual([...index.match(['security']).keys()], ['a.md']);
    index.remove('a.md');
    assert.deepEqual([index.size, index.has('a.md')], [1, false]);
    index.upsert(doc('c.md', 'Kafka topics', 'events'));
    index.retain(['c.md']);
    assert.deepEqual([index.size, [...index.match(['events']).keys()]], [1, ['c.md']]);
  });

  it('ignores stop words and template headings: a task of only those matches nothing', () => {
    const index = new RelevanceIndex([doc('a.md', 'Status accepted', 'The decision and its consequences.')]);
    assert.equal(index.match(['the', 'its', 'consequences', 'outcome']).size, 0);
  });

  it('a plain question\'s domain words are searchable: status, accepted, decision, record, option', () => {
    const index = new RelevanceIndex([doc('a.md', 'Add status field', 'Should a record carry its status? Considered option: a YAML front matter.'), doc('b.md', 'Dual license', 'CC0 and MIT.')]);
    assert.deepEqual([...index.match(['record', 'carry', 'status']).entries()].map(([p, m]) => [p, m.words]), [['a.md', ['record', 'carry', 'status']]]);
    assert.deepEqual([...index.match(['option']).keys()], ['a.md']);
    // British spelling finds the American one; a stem is not stemmed twice (`licens` → `licen` found nothing).
    assert.deepEqual([...index.match(['licence']).keys()], ['b.md']);
  });

  it('"mentions" claims only words of the file\'s own text: not its path, not a two-letter stem of a longer word', () => {
    const index = new RelevanceIndex([{ path: 'services/checkout/adr/0002-lock.md', title: 'Lock carts', body: 'Lock carts in Redis. The AD controllers run apart.' }]);
    assert.deepEqual(index.match(['checkout', 'lock']).get('services/checkout/adr/0002-lock.md')?.words, ['lock']);
    assert.equal(index.match(['adding']).size, 0);
  });
});
