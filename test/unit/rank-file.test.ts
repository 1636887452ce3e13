import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readRankFile } from '../../src/core/rank-file';
import { RankTable } from '../../src/core/rank-table';
import { loadBpe } from '../../src/core/tokens-bpe';
import { REPO } from './helpers';

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
    });
  }

  it('a missing or truncated rank file is no rank file (the loader falls back to js-tiktoken’s module)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-ranks-'));
    try {
      assert.equal(readRankFile('o200k_base', dir), undefined);
      fs.writeFileSync(path.join(dir, 'o200k_base.bin'), fs.readFileSync(path.join(REPO, 'dist', 'ranks', 'o200k_base.bin')).subarray(0, 1000));
      fs.copyFileSync(path.join(REPO, 'dist', 'ranks', 'o200k_base.json'), path.join(dir, 'o200k_base.json'));
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
