import { hostFs as fs } from './host';
import * as path from 'node:path';
import { RankTable } from './rank-table';

/**
 * An encoding's ranks as scripts/build.mjs writes them beside the bundles: `dist/ranks/NAME.bin` holds every
 * token's bytes in rank order, each after its length in one byte (0: no token has that rank), and NAME.json the
 * split pattern and the special tokens. Reading it needs no base64 and no parse of js-tiktoken's 2.3 MB module,
 * and the table is used in place (rank-table.ts).
 */
export interface RankFile {
  table: RankTable;
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
  const table = RankTable.fromRankFile(bin);
  if (!table || table.rankCount !== meta.tokens || typeof meta.pat_str !== 'string') return undefined;
  return { table, pat_str: meta.pat_str, special_tokens: meta.special_tokens };
}
