import { createHash } from 'node:crypto';
import { hostFs as fs } from './host';
import * as path from 'node:path';
import { RankTable } from './rank-table';

/**
 * An encoding's ranks as scripts/build.mjs writes them beside the bundles: `dist/ranks/NAME.bin` holds every
 * token's bytes in rank order, each after its length in one byte (0: no token has that rank), and NAME.json the
 * split pattern and the special tokens. Reading it needs no base64 and no parse of js-tiktoken's 2.3 MB module,
 * and the table is used in place (rank-table.ts).
 *
 * NAME.index holds the slot of each rank's token in the table's hash slots, as the build placed them (`rankIndex`):
 * a run puts each rank in its slot instead of hashing every token again (about 20 to 30 ms of a short CLI run, in
 * which that loop runs before V8 optimizes it). It is used only when the SHA-256 in NAME.json is that of the rank
 * file followed by it, and only on a little-endian machine (the build writes it on one); otherwise, missing or
 * damaged, the table is built from the rank file alone, the same table.
 */
export interface RankFile {
  table: RankTable;
  /** Whether the table's slots came from NAME.index (else the table was built from NAME.bin alone). */
  indexed: boolean;
  pat_str: string;
  special_tokens: Record<string, number>;
}

/** What NAME.json says of NAME.index: the table's slot count, and the digest of NAME.bin followed by NAME.index. */
export interface RankIndexMeta {
  slots: number;
  sha256: string;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The rank file of `name` in `dir` (by default beside the running bundle), or undefined when there is none or it is damaged. */
export function readRankFile(name: string, dir = path.join(__dirname, 'ranks')): RankFile | undefined {
  let bin: Buffer;
  let meta: { pat_str: string; special_tokens: Record<string, number>; tokens: number; index?: RankIndexMeta };
  try {
    bin = fs.readFileSync(path.join(dir, `${name}.bin`));
    meta = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8'));
  } catch {
    return undefined;
  }
  const fromIndex = meta.index ? indexed(bin, meta.tokens, meta.index, path.join(dir, `${name}.index`)) : undefined;
  const table = fromIndex ?? RankTable.fromRankFile(bin);
  if (!table || table.rankCount !== meta.tokens || typeof meta.pat_str !== 'string') return undefined;
  return { table, indexed: fromIndex !== undefined, pat_str: meta.pat_str, special_tokens: meta.special_tokens };
}

/** The table from the rank file and its index file, or undefined when the index is missing, not this file's, or damaged. */
function indexed(bin: Buffer, tokens: number, meta: RankIndexMeta, file: string): RankTable | undefined {
  if (!LITTLE_ENDIAN || !Number.isInteger(tokens) || !Number.isInteger(meta.slots) || tokens < 0) return undefined;
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (raw.length !== 4 * tokens || digest(bin, raw) !== meta.sha256) return undefined;
  const slotOf = raw.byteOffset % 4 === 0 ? new Int32Array(raw.buffer, raw.byteOffset, tokens) : new Int32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  return RankTable.fromIndex(bin, { slotOf, slotCount: meta.slots });
}

/**
 * The index file of a rank file's bytes and what NAME.json says of it (scripts/build.mjs writes both), or undefined
 * on a big-endian machine (the index is little-endian) or when the bytes are no rank file.
 */
export function rankIndex(bin: Buffer): { bytes: Buffer; meta: RankIndexMeta } | undefined {
  const table = LITTLE_ENDIAN ? RankTable.fromRankFile(bin) : undefined;
  if (!table) return undefined;
  const { slotOf, slotCount } = table.index();
  const bytes = Buffer.from(slotOf.buffer, slotOf.byteOffset, slotOf.byteLength);
  return { bytes, meta: { slots: slotCount, sha256: digest(bin, bytes) } };
}

function digest(bin: Buffer, index: Buffer): string {
  return createHash('sha256').update(bin).update(index).digest('hex');
}
