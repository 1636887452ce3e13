import { digestOf } from './digest';
import { FIELDS, RelevanceIndex, type Entry } from './index';
import { termRulesStamp } from './terms';

/**
 * Where a kept relevance index lives between runs: the caller's (the CLI keeps it in the workspace's cache folder,
 * src/cli/index-store.ts). `load` gives the saved bytes, or undefined when there are none; `save` replaces them.
 * Either may throw: a store that cannot be read is no index, one that cannot be written is a warning.
 */
export interface IndexStore {
  load(): Uint8Array | undefined;
  save(bytes: Uint8Array): void;
}

/**
 * The saved form: a 24-byte head (magic `CCRI`, format version, a digest of the term rules, the header's length, the
 * postings' length, a checksum of everything after the head), a JSON header (the terms, and per document its path,
 * size, mtime, text digest, field lengths and postings count), padded to 4 bytes, then every document's postings as
 * little-endian 32-bit words. Anything that does not check out is refused whole: the caller rebuilds.
 */
const MAGIC = 0x49524343; // 'CCRI' little-endian
export const FORMAT_VERSION = 1;
const HEAD = 24;

let rulesDigest: number | undefined;
function rules(): number {
  return (rulesDigest ??= digestOf([termRulesStamp()])[0]);
}

export class IndexFormatError extends Error {}

/** The index's entries as bytes. */
export function serializeIndex(index: RelevanceIndex): Uint8Array {
  const { entries, terms } = index.dump();
  // Only the terms the entries use, renumbered in order of first use.
  const renumber = new Map<number, number>();
  const used: string[] = [];
  let words = 0;
  for (const e of entries) {
    for (let i = 0; i < e.postings.length; i += 2) {
      const id = e.postings[i] >>> 3;
      if (!renumber.has(id)) {
        renumber.set(id, used.length);
        used.push(terms[id]);
      }
    }
    words += e.postings.length;
  }
  const header = JSON.stringify({ terms: used, docs: entries.map((e) => [e.path, e.size ?? -1, e.mtimeMs ?? -1, e.digest, e.digest2, e.lengths, e.postings.length / 2]) });
  let headerBytes = new TextEncoder().encode(header);
  const pad = (4 - (headerBytes.length % 4)) % 4;
  if (pad) {
    const padded = new Uint8Array(headerBytes.length + pad).fill(0x20);
    padded.set(headerBytes);
    headerBytes = padded;
  }
  const out = new Uint8Array(HEAD + headerBytes.length + words * 4);
  const view = new DataView(out.buffer);
  out.set(headerBytes, HEAD);
  let at = HEAD + headerBytes.length;
  for (const e of entries) {
    for (let i = 0; i < e.postings.length; i += 2) {
      view.setUint32(at, (renumber.get(e.postings[i] >>> 3)! << 3) | (e.postings[i] & 7), true);
      view.setUint32(at + 4, e.postings[i + 1], true);
      at += 8;
    }
  }
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, rules(), true);
  view.setUint32(12, headerBytes.length, true);
  view.setUint32(16, words, true);
  view.setUint32(20, checksum(out, HEAD), true);
  return out;
}

/** The index saved in `bytes`; throws IndexFormatError when they are not a whole index of this version and these rules. */
export function restoreIndex(bytes: Uint8Array): RelevanceIndex {
  if (bytes.length < HEAD) throw new IndexFormatError('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new IndexFormatError('not a relevance index');
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) throw new IndexFormatError(`format ${version}, this build reads ${FORMAT_VERSION}`);
  if (view.getUint32(8, true) !== rules()) throw new IndexFormatError('made under other term rules');
  const headerLength = view.getUint32(12, true);
  const words = view.getUint32(16, true);
  if (headerLength % 4 !== 0 || HEAD + headerLength + words * 4 !== bytes.length) throw new IndexFormatError('its lengths do not add up');
  if (checksum(bytes, HEAD) !== view.getUint32(20, true)) throw new IndexFormatError('checksum mismatch');
  let header: { terms: unknown; docs: unknown };
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEAD, HEAD + headerLength)));
  } catch (e) {
    throw new IndexFormatError(`header: ${(e as Error).message}`);
  }
  const { terms, docs } = header;
  if (!Array.isArray(terms) || !terms.every((t) => typeof t === 'string') || !Array.isArray(docs)) throw new IndexFormatError('header: not terms and documents');
  const entries: Entry[] = [];
  const seen = new Set<string>();
  // Every posting at once, checked once: the documents' postings are views of it.
  const all = wordsAt(bytes, HEAD + headerLength, words);
  const termCount = terms.length;
  for (let i = 0; i < all.length; i += 2) {
    if (all[i] >>> 3 >= termCount || (all[i] & 7) >= FIELDS.length || all[i + 1] === 0) throw new IndexFormatError('a posting out of range');
  }
  let at = 0;
  for (const d of docs as unknown[]) {
    if (!Array.isArray(d) || d.length !== 7) throw new IndexFormatError('header: a document is not 7 fields');
    const [path, size, mtimeMs, digest, digest2, lengths, count] = d as unknown[];
    if (typeof path !== 'string' || seen.has(path) || typeof size !== 'number' || typeof mtimeMs !== 'number' || !isU32(digest) || !isU32(digest2) || !isCount(count)) throw new IndexFormatError(`header: document ${JSON.stringify(path)}`);
    if (!Array.isArray(lengths) || lengths.length !== FIELDS.length || !lengths.every(isCount)) throw new IndexFormatError(`header: field lengths of ${path}`);
    seen.add(path);
    if (at + count * 2 > all.length) throw new IndexFormatError('more postings than saved');
    const entry: Entry = { path, digest, digest2, lengths: lengths as number[], postings: all.subarray(at, at + count * 2) };
    if (size >= 0) entry.size = size;
    if (mtimeMs >= 0) entry.mtimeMs = mtimeMs;
    entries.push(entry);
    at += count * 2;
  }
  if (at !== all.length) throw new IndexFormatError('fewer postings than saved');
  return RelevanceIndex.from(entries, terms as string[]);
}

const isCount = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
const isU32 = (x: unknown): x is number => isCount(x) && x <= 0xffffffff;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `count` little-endian 32-bit words from `offset`, as a Uint32Array of their own. */
function wordsAt(bytes: Uint8Array, offset: number, count: number): Uint32Array {
  // A copy (Uint8Array#slice, never Buffer#slice, which is a view of a larger pool), so it is aligned and its own.
  if (LITTLE_ENDIAN) return new Uint32Array(Uint8Array.prototype.slice.call(bytes, offset, offset + count * 4).buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, count * 4);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** FNV-1a-style over 32-bit words from `from` (the length is a multiple of 4 after the head). */
function checksum(bytes: Uint8Array, from: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let h = 0x811c9dc5;
  for (let i = from; i + 4 <= bytes.length; i += 4) {
    h = Math.imul(h ^ view.getUint32(i, true), 0x01000193);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/**
 * The kept index from `store`, or a new empty one (with the reason in `warning`) when there is none, it cannot be
 * read, or it is not a whole index of this build's format and term rules. Never throws: a bad cache costs a rebuild.
 */
export function openIndex(store: IndexStore): { index: RelevanceIndex; warning?: string } {
  let bytes: Uint8Array | undefined;
  try {
    bytes = store.load();
  } catch (e) {
    return { index: new RelevanceIndex(), warning: `the kept relevance index cannot be read (${(e as Error).message}): rebuilt` };
  }
  if (bytes === undefined) return { index: new RelevanceIndex() };
  try {
    return { index: restoreIndex(bytes) };
  } catch (e) {
    if (!(e instanceof IndexFormatError)) throw e;
    return { index: new RelevanceIndex(), warning: `the kept relevance index is not usable (${e.message}): rebuilt` };
  }
}

/** Save the index when it changed; the reason it could not be saved, if it could not. */
export function saveIndex(index: RelevanceIndex, store: IndexStore): string | undefined {
  if (!index.changed) return undefined;
  try {
    store.save(serializeIndex(index));
    index.changed = false;
    return undefined;
  } catch (e) {
    return `the relevance index could not be kept for the next run (${(e as Error).message})`;
  }
}
