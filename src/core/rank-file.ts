import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * An encoding's ranks as scripts/build.mjs writes them beside the bundles: `dist/ranks/NAME.bin` holds every
 * token's bytes in rank order, each after its length in one byte (0: no token has that rank), and NAME.json the
 * split pattern and the special tokens. Reading it needs no base64 and no parse of js-tiktoken's 2.3 MB module:
 * the rank map of o200k_base fills in a third of the time.
 */
export interface RankFile {
  /** Byte string (one character per byte) → rank. */
  ranks: Map<string, number>;
  /** Ranks of two-byte tokens by first byte × 256 + second; -1 where none. */
  pairs: Int32Array;
  maxTokenBytes: number;
  pat_str: string;
  special_tokens: Record<string, number>;
}

/** The rank file of `name` in `dir` (by default beside the running bundle), or undefined when there is none or it is damaged. */
export function readRankFile(name: string, dir = path.join(__dirname, 'ranks')): RankFile | undefined {
  let bin: Buffer;
  let meta: { pat_str: string; special_tokens: Record<string, number>; tokens: number };
  try {
    bin = fs.readFileSync(path.join(dir, `${name}.bin`));
    meta = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8'));
  } catch {
    return undefined;
  }
  const ranks = new Map<string, number>();
  const pairs = new Int32Array(65536).fill(-1);
  let maxTokenBytes = 1;
  let rank = 0;
  // One latin1 string of the whole file, and each key a slice of it: about half the time of a string per token.
  const all = bin.toString('latin1');
  for (let at = 0; at < bin.length; rank++) {
    const n = bin[at++];
    if (at + n > bin.length) return undefined;
    if (n > 0) {
      ranks.set(all.slice(at, at + n), rank);
      if (n === 2) pairs[bin[at] * 256 + bin[at + 1]] = rank;
      if (n > maxTokenBytes) maxTokenBytes = n;
    }
    at += n;
  }
  if (rank !== meta.tokens || typeof meta.pat_str !== 'string') return undefined;
  return { ranks, pairs, maxTokenBytes, pat_str: meta.pat_str, special_tokens: meta.special_tokens };
}
