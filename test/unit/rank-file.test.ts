import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readRankFile } from '../../src/core/rank-file';
import { RankTable, type RankIndex } from '../../src/core/rank-table';
import { loadBpe } from '../../src/core/tokens-bpe';
import { REPO } from './helpers';

/** Everything a table answers with: its tokens, slots, pairs and counts. */
function sameAs(table: RankTable | undefined) {
  assert.ok(table);
  return { entries: [...table.entries()], index: table.index(), pairs: table.pairs, size: table.size, ranks: table.rankCount, longest: table.maxTokenBytes };
}

/** The rank files scripts/build.mjs writes must hold exactly js-tiktoken's ranks (so rank tables load fast). */
describe('rank files (dist/ranks/NAME.bin)', () => {
  for (const name of ['o200k_base', 'cl100k_base']) {
    it(`${name}: every token at its rank, the same split pattern and special tokens as js-tiktoken`, () => {
      const file = readRankFile(name, path.join(REPO, 'dist', 'ranks'));
      assert.ok(file, 'the build wrote the rank file');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const source = require(`js-tiktoken/ranks/${name}`);
      const ranks = source.default ?? source;
      const expected = new Map<string, number>();
      for (const line of (ranks.bpe_ranks as string).split('\n')) {
        if (!line) continue;
        const parts = line.split(' ');
        let rank = Number.parseInt(parts[1], 10);
        for (let i = 2; i < parts.length; i++) expected.set(Buffer.from(parts[i], 'base64').toString('latin1'), rank++);
      }
      const { table } = file;
      assert.equal(table.size, expected.size);
      for (const [bytes, rank] of expected) if (table.get(bytes) !== rank) assert.fail(`${JSON.stringify(bytes)}: ${table.get(bytes)} instead of ${rank}`);
      assert.deepEqual(new Map(table.entries()), expected);
      assert.equal(file.pat_str, ranks.pat_str);
      assert.deepEqual(file.special_tokens, ranks.special_tokens);
      assert.equal(table.pairs[' t'.charCodeAt(0) * 256 + 't'.charCodeAt(0)], expected.get(' t'));
      assert.equal(table.maxTokenBytes, [...expected.keys()].reduce((m, k) => Math.max(m, k.length), 0));
      // js-tiktoken's own format loads into the same table (the unit tests count with that one).
      assert.deepEqual([...loadBpe(ranks).ranks.entries()], [...table.entries()]);
      // The table's slots came from the build's index, and it is, slot for slot, the table the rank file alone builds.
      assert.equal(file.indexed, true);
      const built = RankTable.fromRankFile(fs.readFileSync(path.join(REPO, 'dist', 'ranks', `${name}.bin`)));
      assert.ok(built);
      assert.deepEqual(sameAs(table), sameAs(built));
    });
  }

  it('an index that is missing, damaged, cut, of another rank file or a big-endian build is not used: the table is built from the rank file, the same', () => {
    const dist = path.join(REPO, 'dist', 'ranks');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-ranks-'));
    const indexFile = path.join(dir, 'cl100k_base.index');
    const metaFile = path.join(dir, 'cl100k_base.json');
    const bin = fs.readFileSync(path.join(dist, 'cl100k_base.bin'));
    const index = fs.readFileSync(path.join(dist, 'cl100k_base.index'));
    const meta = JSON.parse(fs.readFileSync(path.join(dist, 'cl100k_base.json'), 'utf8'));
    const expected = sameAs(RankTable.fromRankFile(bin));
    /** The table read from `dir` (always the same) and where its slots came from. */
    const read = () => {
      const file = readRankFile('cl100k_base', dir);
      assert.ok(file);
      assert.deepEqual(sameAs(file.table), expected);
      return file.indexed ? 'index' : 'built';
    };
    try {
      fs.writeFileSync(path.join(dir, 'cl100k_base.bin'), bin);
      fs.writeFileSync(metaFile, JSON.stringify(meta));
      fs.writeFileSync(indexFile, index);
      assert.equal(read(), 'index');
      fs.rmSync(indexFile);
      assert.equal(read(), 'built', 'missing');
      const damaged = Buffer.from(index);
      damaged[4 * 1234] ^= 1; // one bit of rank 1234's slot
      fs.writeFileSync(indexFile, damaged);
      assert.equal(read(), 'built', 'one bit flipped');
      fs.writeFileSync(indexFile, index.subarray(0, index.length - 4));
      assert.equal(read(), 'built', 'cut');
      fs.writeFileSync(indexFile, index);
      fs.writeFileSync(metaFile, JSON.stringify({ ...meta, index: { ...meta.index, sha256: '0'.repeat(64) } }));
      assert.equal(read(), 'built', 'another digest');
      fs.writeFileSync(metaFile, JSON.stringify({ ...meta, index: { ...meta.index, slots: meta.index.slots / 2 } }));
      assert.equal(read(), 'built', 'fewer slots');
      fs.writeFileSync(metaFile, JSON.stringify({ ...meta, index: { ...meta.index, slots: meta.index.slots * 2 } }));
      assert.equal(read(), 'built', 'more slots');
      const { index: _, ...withoutIndex } = meta;
      fs.writeFileSync(metaFile, JSON.stringify(withoutIndex));
      assert.equal(read(), 'built', 'a rank file without an index (a big-endian build writes none)');
      // The rank file is another one: the digest covers it too.
      const other = Buffer.from(bin);
      other[bin.length - 1] ^= 1;
      fs.writeFileSync(path.join(dir, 'cl100k_base.bin'), other);
      fs.writeFileSync(metaFile, JSON.stringify(meta));
      const file = readRankFile('cl100k_base', dir);
      assert.ok(file);
      assert.equal(file.indexed, false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('slots that cannot be the rank file’s are refused by the table itself, even with a right digest', () => {
    // Ranks 0..3: "a", no token, "ab", "abc".
    const file = Buffer.from([1, 0x61, 0, 2, 0x61, 0x62, 3, 0x61, 0x62, 0x63]);
    const table = RankTable.fromRankFile(file);
    assert.ok(table);
    const good = table.index();
    assert.equal(good.slotCount, 1024);
    assert.deepEqual(sameAs(RankTable.fromIndex(file, good)), sameAs(table));
    const slotOf = (change: (a: Int32Array) => void) => {
      const a = Int32Array.from(good.slotOf);
      change(a);
      return { ...good, slotOf: a };
    };
    const bad: [string, RankIndex][] = [
      ['a slot count that is not a power of two', { ...good, slotCount: 1536 }],
      ['too few slots', { ...good, slotCount: 512 }],
      ['more slots than the table is made with (its lookups would probe elsewhere)', { ...good, slotCount: 2048 }],
      ['a slot out of range', slotOf((a) => (a[0] = 1024))],
      ['a negative slot', slotOf((a) => (a[2] = -5))],
      ['one slot for two tokens', slotOf((a) => (a[3] = a[0]))],
      ['a slot for a rank without a token', slotOf((a) => (a[1] = 7))],
      ['a token without a slot', slotOf((a) => (a[2] = -1))],
      ['fewer ranks than the file holds', { ...good, slotOf: good.slotOf.subarray(0, 3) }],
      ['more ranks than the file holds', { ...good, slotOf: Int32Array.from([...good.slotOf, -1]) }],
    ];
    for (const [what, index] of bad) assert.equal(RankTable.fromIndex(file, index), undefined, what);
  });

  it('a missing or truncated rank file is no rank file (the loader falls back to js-tiktoken’s module)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-ranks-'));
    try {
      assert.equal(readRankFile('o200k_base', dir), undefined);
      fs.writeFileSync(path.join(dir, 'o200k_base.bin'), fs.readFileSync(path.join(REPO, 'dist', 'ranks', 'o200k_base.bin')).subarray(0, 1000));
      fs.copyFileSync(path.join(REPO, 'dist', 'ranks', 'o200k_base.json'), path.join(dir, 'o200k_base.json'));
      fs.copyFileSync(path.join(REPO, 'dist', 'ranks', 'o200k_base.index'), path.join(dir, 'o200k_base.index'));
      assert.equal(readRankFile('o200k_base', dir), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lookup reads the byte string in place: a part of a longer string, no token, characters past a byte', () => {
    // Ranks 0..3: "a", no token, "ab", "abc".
    const table = RankTable.fromRankFile(Buffer.from([1, 0x61, 0, 2, 0x61, 0x62, 3, 0x61, 0x62, 0x63]));
    assert.ok(table);
    assert.deepEqual([table.size, table.rankCount, table.maxTokenBytes], [3, 4, 3]);
    assert.deepEqual(['a', 'ab', 'abc', 'b', 'abcd', '', 'a\u0162'].map((k) => table.get(k)), [0, 2, 3, -1, -1, -1, -1]);
    assert.deepEqual([table.get('xabcx', 1, 4), table.get('xabcx', 1, 3), table.get('xabcx', 2, 4)], [3, 2, -1]);
    assert.equal(table.pairs[0x61 * 256 + 0x62], 2);
    assert.deepEqual([...table.entries()], [['a', 0], ['ab', 2], ['abc', 3]]);
    // Ends inside a token: no table.
    assert.equal(RankTable.fromRankFile(Buffer.from([1, 0x61, 3, 0x61])), undefined);
  });
});
