import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByText } from '../../../src/core/relevance/by-text';
import { digestOf, fieldsDigest } from '../../../src/core/relevance/digest';
import { RelevanceIndex } from '../../../src/core/relevance/index';

describe('work kept by text', () => {
  it('ByText makes a value once per text and lets the least recently used go past its bound', () => {
    const made: string[] = [];
    const memo = new ByText<number>(2);
    const get = (t: string) => memo.get(t, (x) => (made.push(x), x.length));
    assert.deepEqual([get('aa'), get('bbb'), get('aa'), get('c'), get('bbb'), get('aa')], [2, 3, 2, 1, 3, 2]);
    // 'bbb' was the least recently used when 'c' came, so it was made again; then 'aa' was.
    assert.deepEqual(made, ['aa', 'bbb', 'c', 'bbb', 'aa']);
    assert.equal(memo.size, 2);
  });

  it('ByText past its bound lets a quarter of the bound go at once, least recently used first', () => {
    const made: string[] = [];
    const memo = new ByText<number>(8);
    const get = (t: string) => memo.get(t, (x) => (made.push(x), x.length));
    for (const t of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) get(t);
    get('a');
    get('i');
    // 9 entries > 8: the three least recently used (b, c, d) went; a, used again, stayed.
    assert.equal(memo.size, 6);
    made.length = 0;
    for (const t of ['a', 'e', 'f', 'g', 'h', 'i']) get(t);
    assert.deepEqual(made, []);
    get('b');
    assert.deepEqual(made, ['b']);
  });

  it('the index digest kept by body equals digestOf, whatever the fields before the body', () => {
    const body = 'The ledger retries each payment call three times.\n'.repeat(40);
    const cases = [
      ['Ledger', 'Retries', '', '', 'docs/ledger', body],
      ['Ledger v2', 'Retries', '', '', 'docs/ledger', body],
      ['Ledger', 'Retries', 'A summary', 'payments ops', 'docs/ledger', body],
      ['Ledger', 'Retries', '', '', 'docs/other', body],
      ['Ledger', 'Retries', '', '', 'docs/ledger', body + 'x'],
      ['', '', '', '', '', ''],
    ];
    for (let round = 0; round < 2; round++) for (const f of cases) assert.deepEqual(fieldsDigest(f), digestOf(f), f.slice(0, 5).join('|'));
    assert.notDeepEqual(fieldsDigest(cases[0]), fieldsDigest(cases[1]));
  });

  it('digests are those a kept index on disk was written with (fixed values)', () => {
    const fields = ['Payment retries', '# Retry\n# Budget', 'about retries', 'adr payment', 'docs/adr/0007-retry', 'The gateway retries twice.'];
    assert.deepEqual(digestOf(fields), [997777133, 2332493996]);
    assert.deepEqual(fieldsDigest(fields), [997777133, 2332493996]);
    assert.deepEqual(digestOf([]), [2166136261, 16777619]);
  });

  it('a document whose title changed but not its body is indexed again', () => {
    const index = new RelevanceIndex();
    const body = 'Refunds go through the same payment gateway.';
    index.upsert({ path: 'docs/refunds.md', title: 'Refunds', body });
    index.upsert({ path: 'docs/refunds.md', title: 'Refunds', body });
    index.upsert({ path: 'docs/refunds.md', title: 'Chargebacks', body });
    assert.deepEqual(index.stats, { reused: 1, indexed: 2 });
  });
});
