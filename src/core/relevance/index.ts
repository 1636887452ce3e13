import { eachWord } from '../task/words';
import { processTerm, stem } from './terms';
import { bm25, countHits, invDocFreq, keysOf } from './bm25';
import { fieldsDigest, fieldTexts } from './digest';

/** One searchable file, as the index sees it. */
export interface IndexedDoc {
  path: string;
  title: string;
  headings?: string[];
  summary?: string;
  tags?: string[];
  body: string;
}

/** The version of the file a document was read from: with the path, the key of its entry in a kept index. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface TextMatch {
  /** BM25+ score over the weighted fields. */
  score: number;
  /**
   * The task's words that matched in the file's own text (title, headings, summary, tags, body: not its path), as
   * the task wrote them, in the task's order: what "mentions …" may claim.
   */
  words: string[];
}

export const FIELDS = ['title', 'headings', 'summary', 'tags', 'path', 'body'] as const;
const BOOST = [3, 2, 2, 2, 1.5, 1];
const PATH_FIELD = FIELDS.indexOf('path');

/**
 * One document's entry: its terms, each with the field it is in and how often, packed as pairs
 * `(termId << 3 | field, count)` in term order, and each field's length (its distinct words, stop words included).
 */
export interface Entry {
  path: string;
  size?: number;
  mtimeMs?: number;
  /** Digest of the indexed text (fields and path): an entry is reused only for the very same text. */
  digest: number;
  digest2: number;
  lengths: number[];
  postings: Uint32Array;
  /** What the last query asked found in this entry (match), not saved: an unchanged entry is not read again. */
  hits?: QueryHits;
}

/** An entry's hits for one query: `(slot, count)` keys, sorted (see match); none for an entry the query misses. */
interface QueryHits {
  query: number;
  keys: readonly number[];
}

/** Queries made in this process, so that two indexes sharing entries (dump, from) never read each other's hits. */
let queries = 0;

/**
 * The workspace's full-text index (BM25+ over weighted fields, scored as MiniSearch scores them), kept up to date
 * file by file: `upsert` on change, `remove` on delete. A forward index: each document keeps its own term counts, a
 * query reads them all once (about 2 M postings for 100 000 short notes: a few milliseconds), so a change, a delete
 * or a reload is an exact replacement of one entry and nothing drifts. The same query asked again reads only the
 * entries made since (each keeps what the last query found in it). Tokens are identifier-aware and stemmed on
 * both sides, so `paymentMethod` in a task finds "payment methods" in a document. Its entries can be saved and
 * restored (persist.ts): a document whose path, size, mtime and text are unchanged is not tokenised again.
 */
export class RelevanceIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly sumLengths = new Array<number>(FIELDS.length).fill(0);
  /**
   * Each word as `eachWord` gives it, once seen: its id in `wordTerm` (the id of its term, -1 for none: a stop word, a
   * number, a single letter) and `wordSeen` (the last field it was counted in). A word is made a term once, not on
   * every occurrence in every document. Only a memo: cleared, between documents, past WORD_MEMO words.
   */
  private readonly wordIds = new Map<string, number>();
  private wordTerm: Int32Array = new Int32Array(1024);
  private wordSeen: Uint32Array = new Uint32Array(1024);
  /** The field being tokenised, counted from 1 (`wordSeen` holds 0 for a word not yet counted in any). */
  private field = 0;
  /** Counts by `termId << 3 | field` while a document is tokenised, all zero between documents. */
  private counts: Uint32Array = new Uint32Array(8192);
  /** Where new entries' postings are cut from (postingsOf), and how much of it is taken. */
  private slab = new Uint32Array(0);
  private slabAt = 0;
  /**
   * The last query's terms, by their ids and places, its number (what an entry's `hits` were found for) and how many
   * times it was asked. Hits are kept from its second time on: a one-off query (the CLI's) keeps nothing.
   */
  private query = { terms: '', id: 0, asked: 0 };
  /** Whether an entry was added, replaced or removed since the index was created or restored. */
  changed = false;
  /** How many upserts reused an entry, and how many tokenised a document. */
  readonly stats = { reused: 0, indexed: 0 };

  constructor(docs: IndexedDoc[] = []) {
    for (const d of docs) this.upsert(d);
  }

  get size(): number {
    return this.entries.size;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Add or replace one document; a document whose text (and, when given, file version) did not change is left alone. */
  upsert(doc: IndexedDoc, stamp?: FileStamp): void {
    const fields = fieldTexts(doc);
    const [d1, d2] = fieldsDigest(fields);
    const known = this.entries.get(doc.path);
    if (known && known.digest === d1 && known.digest2 === d2 && (!stamp || (known.size === stamp.size && known.mtimeMs === stamp.mtimeMs))) {
      this.stats.reused++;
      return;
    }
    if (known && known.digest === d1 && known.digest2 === d2 && stamp) {
      // The same text under a new version (a touched file): the same terms, a new key.
      known.size = stamp.size;
      known.mtimeMs = stamp.mtimeMs;
      this.changed = true;
      this.stats.reused++;
      return;
    }
    this.stats.indexed++;
    this.put({ path: doc.path, size: stamp?.size, mtimeMs: stamp?.mtimeMs, digest: d1, digest2: d2, ...this.tokenise(fields) });
  }

  remove(path: string): void {
    const old = this.entries.get(path);
    if (!old) return;
    for (let f = 0; f < FIELDS.length; f++) this.sumLengths[f] -= old.lengths[f];
    this.entries.delete(path);
    this.changed = true;
  }

  /** Keep exactly these paths: the ones not listed are removed. */
  retain(paths: Iterable<string>): void {
    const keep = new Set(paths);
    for (const p of [...this.entries.keys()]) if (!keep.has(p)) this.remove(p);
  }

  /** Score every document against the task's words; `weight` boosts some words (identifiers, quoted messages). */
  match(words: string[], weight: (word: string) => number = () => 1): Map<string, TextMatch> {
    const byStem = new Map<string, string>();
    const weights = new Map<string, number>();
    for (const w of words) {
      const t = processTerm(w);
      if (t === null) continue;
      if (!byStem.has(t)) byStem.set(t, w);
      weights.set(t, Math.max(weights.get(t) ?? 0, weight(w)));
    }
    const out = new Map<string, TextMatch>();
    const order = [...byStem.keys()];
    // termId → 1 + its place in the query, for the terms any document has.
    const slot = new Map<number, number>();
    const ids = order.map((t, i) => {
      const id = this.termIds.get(t);
      if (id !== undefined) slot.set(id, i + 1);
      return id ?? -1;
    });
    if (slot.size === 0) return out;
    const lookup = new Uint32Array(this.terms.length);
    for (const [id, q] of slot) lookup[id] = q;

    // The same terms as the last query: an entry read then (the same object: a changed document is a new entry) has
    // its hits already, so after a one-document edit only that document's postings are read again.
    const terms = ids.join(',');
    if (this.query.terms !== terms) this.query = { terms, id: ++queries, asked: 0 };
    const query = this.query.id;
    const remember = ++this.query.asked > 1;

    // The documents each (query term, field) pair is in, then the score of each document that has a hit (BM25+
    // needs the first for the second).
    const F = FIELDS.length;
    const docCount = new Uint32Array(order.length * F);
    const hit: Entry[] = [];
    // Each hit's keys when kept (undefined: made again for its score). Asked once, a query holds no document's keys
    // past its own turn: all of them at once, 100 000 notes with hits peaked 70 MB higher.
    const hitKeys: (readonly number[] | undefined)[] = [];
    for (const entry of this.entries.values()) {
      let keys = entry.hits?.query === query ? entry.hits.keys : undefined;
      if (keys === undefined && remember) {
        // Kept at its length: pushed one by one, an array's backing store is up to half again as long.
        keys = keysOf(entry.postings, lookup, F).slice();
        entry.hits = { query, keys };
      }
      if (keys === undefined) {
        if (countHits(entry.postings, lookup, F, docCount)) {
          hit.push(entry);
          hitKeys.push(undefined);
        }
        continue;
      }
      if (keys.length === 0) continue;
      for (let i = 0; i < keys.length; i++) docCount[Math.floor(keys[i] / 2 ** 21)]++;
      hit.push(entry);
      hitKeys.push(keys);
    }
    const n = this.entries.size;
    const avg = this.sumLengths.map((s) => s / n);
    const boosts = order.map((t) => weights.get(t) ?? 1);
    // Each (query term, field)'s inverse document frequency, worked out once, not once per document that has it.
    const idfs = Array.from(docCount, (matching) => invDocFreq(matching, n));
    for (let h = 0; h < hit.length; h++) {
      const entry = hit[h];
      const keys = hitKeys[h] ?? keysOf(entry.postings, lookup, F);
      let score = 0;
      let quality = 0;
      const words: string[] = [];
      for (let i = 0; i < keys.length; ) {
        const q = Math.floor(Math.floor(keys[i] / 2 ** 21) / F);
        let termScore = 0;
        let inText = false;
        for (; i < keys.length && Math.floor(Math.floor(keys[i] / 2 ** 21) / F) === q; i++) {
          const slot = Math.floor(keys[i] / 2 ** 21);
          const field = slot % F;
          termScore += boosts[q] * BOOST[field] * bm25(keys[i] % 2 ** 21, idfs[slot], entry.lengths[field], avg[field]);
          if (field !== PATH_FIELD) inText = true;
        }
        score += termScore;
        quality++;
        if (inText) words.push(byStem.get(order[q])!);
      }
      // To 12 significant digits: documents whose scores are equal but for the last bits of rounding (the same figures
      // under other terms) tie, and ties are ordered by path, whatever order the sums were taken in.
      out.set(entry.path, { score: Number((score * quality).toPrecision(12)), words });
    }
    return out;
  }

  /** Every entry, in insertion order, and the term of each id (for persist.ts). */
  dump(): { entries: Entry[]; terms: readonly string[] } {
    return { entries: [...this.entries.values()], terms: this.terms };
  }

  /** Load entries saved by `dump` (persist.ts checks them first); the index is then unchanged. */
  static from(entries: Entry[], terms: readonly string[]): RelevanceIndex {
    const index = new RelevanceIndex();
    for (const t of terms) index.termId(t);
    for (const e of entries) index.put(e);
    index.changed = false;
    return index;
  }

  private put(entry: Entry): void {
    this.remove(entry.path);
    for (let f = 0; f < FIELDS.length; f++) this.sumLengths[f] += entry.lengths[f];
    this.entries.set(entry.path, entry);
    this.changed = true;
  }

  /**
   * Each field's words: its length (distinct words, stop words included, as MiniSearch counted) and its terms' counts,
   * in one pass over its words: each word is looked up once in the word memo, counted in `counts` (reset after).
   */
  private tokenise(fields: string[]): { lengths: number[]; postings: Uint32Array } {
    if (this.wordIds.size > WORD_MEMO || this.field > 0xfffffff0) this.forgetWords();
    // Made at its size: pushed one by one, six numbers took a backing store of 17 (150 bytes an entry, kept for good).
    const lengths = fields.map(() => 0);
    const touched: number[] = [];
    for (let f = 0; f < fields.length; f++) {
      const mark = ++this.field;
      let distinct = 0;
      eachWord(fields[f], (word) => {
        const w = this.wordId(word);
        if (this.wordSeen[w] !== mark) {
          this.wordSeen[w] = mark;
          distinct++;
        }
        const t = this.wordTerm[w];
        if (t < 0) return;
        const key = (t << 3) | f;
        if (key >= this.counts.length) this.counts = grown(this.counts, Math.max(2 * this.counts.length, key + 1));
        if (this.counts[key]++ === 0) touched.push(key);
      });
      lengths[f] = distinct;
    }
    touched.sort((a, b) => a - b);
    const postings = this.postingsOf(touched.length * 2);
    for (let i = 0; i < touched.length; i++) {
      const key = touched[i];
      postings[2 * i] = key;
      postings[2 * i + 1] = this.counts[key];
      this.counts[key] = 0;
    }
    return { lengths, postings };
  }

  /**
   * Room for `words` words of postings, cut from the current slab (a typed array per entry was, for 100 000 notes,
   * 100 000 array buffers of some 200 bytes of bookkeeping each). A slab lives while one of its entries does, as the
   * buffer of a restored index does (persist.ts); a replaced entry's words are not reused. A large entry has its own.
   */
  private postingsOf(words: number): Uint32Array {
    if (words > SLAB_WORDS / 4) return new Uint32Array(words);
    if (this.slabAt + words > this.slab.length) {
      this.slab = new Uint32Array(SLAB_WORDS);
      this.slabAt = 0;
    }
    const out = this.slab.subarray(this.slabAt, this.slabAt + words);
    this.slabAt += words;
    return out;
  }

  /** The id of `word` in the word memo, made (with its term) on first sight. */
  private wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id !== undefined) return id;
    id = this.wordIds.size;
    if (id === this.wordTerm.length) {
      this.wordTerm = grown(this.wordTerm, id * 2);
      this.wordSeen = grown(this.wordSeen, id * 2);
    }
    const term = processTerm(word);
    this.wordTerm[id] = term === null ? -1 : this.termId(term);
    // A word is a slice of the document's text: kept as a key, it would keep that whole text alive.
    this.wordIds.set(detached(word), id);
    return id;
  }

  private forgetWords(): void {
    this.wordIds.clear();
    this.wordTerm = new Int32Array(1024);
    this.wordSeen = new Uint32Array(1024);
    this.field = 0;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      const own = detached(term);
      this.terms.push(own);
      this.termIds.set(own, id);
    }
    return id;
  }
}

/** Words of a postings slab (64 KiB). */
const SLAB_WORDS = 16384;

/** How many distinct words the word memo holds before it starts again (some 25 MB at most). */
const WORD_MEMO = 1 << 18;

/** `a` copied into a larger array of the same kind, of `length` elements. */
function grown<T extends Int32Array | Uint32Array>(a: T, length: number): T {
  const out = (a instanceof Int32Array ? new Int32Array(length) : new Uint32Array(length)) as T;
  out.set(a);
  return out;
}

/**
 * A copy of a short string that holds no larger string alive (V8 keeps a slice's parent). Not trim/lines.ts's `own`:
 * that one goes through UTF-8, which turns a lone surrogate into U+FFFD, and a term must stay the same string.
 */
function detached(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

export { stem };
