import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readRankFile } from '../../src/core/rank-file';
import { REPO } from './helpers';

/** The rank files scripts/build.mjs writes must hold exactly js-tiktoken's ranks (issue 18: rank tables load fast). */
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
      assert.equal(file.ranks.size, expected.size);
      for (const [bytes, rank] of expected) if (file.ranks.get(bytes) !== rank) assert.fail(`${JSON.stringify(bytes)}: ${file.ranks.get(bytes)} instead of ${rank}`);
      assert.equal(file.pat_str, ranks.pat_str);
      assert.deepEqual(file.special_tokens, ranks.special_tokens);
      assert.equal(file.pairs[' t'.charCodeAt(0) * 256 + 't'.charCodeAt(0)], expected.get(' t'));
      assert.equal(file.maxTokenBytes, [...expected.keys()].reduce((m, k) => Math.max(m, k.length), 0));
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
});
