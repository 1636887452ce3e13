import { InputError } from './errors';
import { Lru } from './lru';
import { createHash } from 'node:crypto';
import { readRankFile } from './rank-file';
import { bpeTable, countBpe, loadBpe, type BpeRanks, type BpeTable } from './tokens-bpe';

/**
 * Token counting. Encodings load lazily on the first exact count (never during activation); counts are cached by
 * content hash. Estimates are for what will not be sent: they never tokenize.
 */

export type EncodingName = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base'];

/** The counter the chain is given: synchronous, injected (tests bring their own). vscode.lm's countTokens is async, so it cannot be this counter; the send loop uses it as a final check of the assembled request. */
export interface Tokenizer {
  readonly encoding: string;
  count(text: string): number;
  /** Optional bounded count: exact up to `limit`, else any number above it (see `countUpTo`). */
  countUpTo?(text: string, limit: number): number;
}

const loaded = new Map<EncodingName, BpeTable>();

/** Names of the encodings loaded in this process so far (activation must leave this empty). */
export function loadedEncodings(): EncodingName[] {
  return [...loaded.keys()];
}

/**
 * An encoding's rank table, loaded once per process on first use. The ranks come from js-tiktoken's files; the
 * counting is ours (tokens-bpe.ts): exact like the reference on every input, long runs included. It builds only
 * the rank map (no decode map, no intermediate object), so it loads several times faster than js-tiktoken's constructor.
 */
export function loadEncoding(name: EncodingName): BpeTable {
  const existing = loaded.get(name);
  if (existing) return existing;
  // Beside a bundle, the build's rank file (rank-file.ts: no base64, no 2.3 MB module to parse); else js-tiktoken's.
  const file = readRankFile(name);
  const table = file ? bpeTable(file) : loadBpe(rankModule(name));
  loaded.set(name, table);
  return table;
}

function rankModule(name: EncodingName): BpeRanks {
  // Plain require calls so esbuild keeps each rank table behind a lazy module initialiser.
  const ranks =
    name === 'o200k_base'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('js-tiktoken/ranks/o200k_base')
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('js-tiktoken/ranks/cl100k_base');
  return (ranks.default ?? ranks) as BpeRanks;
}

/** Model families and their encodings. Unknown families get the closest encoding and `approximate: true`. */
const MODEL_ENCODINGS: [RegExp, EncodingName][] = [
  [/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/i, 'o200k_base'],
  [/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada)/i, 'cl100k_base'],
];

export interface EncodingChoice {
  encoding: EncodingName;
  /** true when the model's own tokenizer is not this encoding: the policy margin absorbs the difference. */
  approximate: boolean;
}

export function encodingForModel(model: string | undefined, override?: string): EncodingChoice {
  if (override) {
    if (!(ENCODINGS as readonly string[]).includes(override)) {
      throw new InputError(`Unknown encoding "${override}". Known encodings: ${ENCODINGS.join(', ')}.`);
    }
    return { encoding: override as EncodingName, approximate: false };
  }
  const bare = (model ?? '').replace(/^.*\//, '');
  for (const [pattern, encoding] of MODEL_ENCODINGS) {
    if (pattern.test(bare)) return { encoding, approximate: false };
  }
  return { encoding: 'o200k_base', approximate: true };
}

/** A cheap upper-leaning estimate for text that will not be sent whole: about 4 characters per token. */
export { estimateTokens, estimateTokensFromBytes } from './estimate';

export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** An exact counter over an encoding (see tokens-bpe.ts), with a bounded cache keyed by content hash. */
export class TiktokenCounter implements Tokenizer {
  private readonly cache: Lru<string, number>;
  /** Characters handed to the encoder so far (what the bounded count and its remembered steps save shows here). */
  encodedChars = 0;
  constructor(
    readonly encoding: EncodingName = 'o200k_base',
    cacheSize = 4096,
  ) {
    this.cache = new Lru(cacheSize);
  }

  count(text: string): number {
    return this.countUpTo(text, Infinity);
  }

  /** The exact count when it is at most `limit`; otherwise some number above `limit`, found without encoding the rest. */
  countUpTo(text: string, limit: number, piecewise = true): number {
    if (text.length === 0) return 0;
    const key = contentHash(text);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    if (piecewise && limit === Infinity && text.length > PIECEWISE_CHARS) {
      // A long text (a whole request) is counted as the sum of its content-defined pieces, each cached: after an
      // edit only the pieces around it are encoded again. Exact: every cut is a safe cut.
      let sum = 0;
      let at = 0;
      for (const cut of contentCuts(text)) {
        sum += this.countUpTo(text.slice(at, cut), Infinity, false);
        at = cut;
      }
      return this.remember(key, sum);
    }
    // Far over its limit by the floor alone (a tool result against its threshold): nothing to encode.
    if (limit !== Infinity) {
      const floor = tokenFloor(text, limit);
      if (floor > limit) return floor;
    }
    const table = loadEncoding(this.encoding);
    // A bounded count's steps are remembered one by one: the candidates of a trimmer share their start (a log's
    // template rows), so each step is encoded once, not once per candidate. Same cuts, same sum: the same count.
    const encode = limit === Infinity || text.length <= COUNT_STEP_CHARS ? (piece: string) => this.encode(table, piece) : (piece: string) => this.step(table, piece);
    const { count, chars } = boundedCount(encode, text, limit);
    if (chars < text.length) return count;
    return this.remember(key, count);
  }

  private encode(table: BpeTable, piece: string): number {
    this.encodedChars += piece.length;
    return countBpe(table, piece);
  }

  /** One step of a bounded count, through the cache (keyed by its content like a whole text). */
  private step(table: BpeTable, piece: string): number {
    const key = contentHash(piece);
    return this.cache.get(key) ?? this.remember(key, this.encode(table, piece));
  }

  private remember(key: string, count: number): number {
    this.cache.set(key, count);
    return count;
  }
}

/** A counter's bounded count when it has one; otherwise its whole count (still correct, only slower). */
export function countUpTo(tokenizer: Tokenizer, text: string, limit: number): number {
  return tokenizer.countUpTo ? tokenizer.countUpTo(text, limit) : tokenizer.count(text);
}

/** Texts longer than this are counted piecewise (`contentCuts`); pieces are 2–16 K characters. */
export const PIECEWISE_CHARS = 32 * 1024;

/**
 * Content-defined cuts of a text (its length last): safe cuts (see `safeCut`) chosen by the 8 characters before
 * them (one in 32), at least 2 K and at most about 16 K characters apart. A choice depends only on the text near
 * it and on the previous cut, so an edit moves the cuts around it only: the pieces after it are the same strings.
 */
export function contentCuts(text: string, min = 2048, max = 16384): number[] {
  const cuts: number[] = [];
  let last = 0;
  for (let from = min; ; ) {
    SAFE_CUT.lastIndex = from;
    const m = SAFE_CUT.exec(text);
    if (!m) break;
    const p = m.index;
    // Started inside a surrogate pair, the search stepped back before `from`: go on after the pair.
    if (p < from) {
      from++;
      continue;
    }
    let h = 0x811c9dc5;
    for (let i = p - 8; i < p; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    if ((h >>> 0) % 32 === 0 || p - last >= max) {
      cuts.push(p);
      last = p;
      from = p + min;
    } else from = p + 1;
  }
  cuts.push(text.length);
  return cuts;
}

/** 1 for an ASCII character that ends a stretch in `tokenFloor`: white space, control characters, punctuation but `_` and `'`. */
const FLOOR_SEPARATOR = new Uint8Array(128).map((_, c) => (/[A-Za-z0-9_']/.test(String.fromCharCode(c)) ? 0 : 1));

/**
 * A lower bound of the tokens of `text` in o200k_base and cl100k_base, without encoding it; counted only until it
 * passes `limit`. Every pre-token of either split pattern is at least one token, and holds at most one run of letters
 * (with a contraction after it in o200k_base: `It's`) and at most three digits of one run of digits. So in each
 * stretch of ASCII letters, digits, `_` and `'` between ASCII white space or punctuation, each run of letters, `_` and
 * `'` that holds a letter is a token at least (joining runs only lowers the bound; a special token such as
 * `<|fim_prefix|>` is one run), and each run of n digits ⌈n / 3⌉. A stretch holding a non-ASCII character counts
 * nothing: it may be punctuation that one pre-token shares with its neighbours (`—-—`).
 */
export function tokenFloor(text: string, limit = Infinity): number {
  let n = 0;
  let stretch = 0;
  let wide = false;
  let digits = -1;
  let letters = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      wide = true;
      continue;
    }
    if (FLOOR_SEPARATOR[c] === 1) {
      if (!wide) {
        n += stretch;
        if (n > limit) return n;
      }
      stretch = 0;
      wide = false;
      digits = -1;
      letters = false;
    } else if (c >= 0x30 && c <= 0x39) {
      letters = false;
      if (++digits % 3 === 0) stretch++;
    } else {
      // A letter, `_` or `'`: a run counts once, for its first letter (`'-'` and `_-_` are punctuation alone).
      digits = -1;
      if (!letters && c !== 0x5f && c !== 0x27) {
        stretch++;
        letters = true;
      }
    }
  }
  return wide ? n : n + stretch;
}

/** Characters encoded per step of a bounded count (each step ends at the next safe cut after this). */
export const COUNT_STEP_CHARS = 4096;

/**
 * Where a text can be cut so that the counts of the two parts add up to the count of the whole: a cut no
 * pre-token of the split pattern crosses. After a newline followed by a character that starts a new pre-token
 * (not white space, not `/`, which `[\r\n/]*` would take), or between two letters' words separated by one space.
 */
const SAFE_CUT = /(?<=\n)(?=[^\s\u0085/])|(?<=\p{L})(?= \p{L})/gu;

/** The first safe cut at or after `from` (the text's length when there is none). */
export function safeCut(text: string, from: number): number {
  // A unicode regex started inside a surrogate pair steps back to the pair's start: start after it instead.
  const low = text.charCodeAt(from);
  if (low >= 0xdc00 && low <= 0xdfff) from++;
  if (from >= text.length) return text.length;
  SAFE_CUT.lastIndex = from;
  const m = SAFE_CUT.exec(text);
  return m ? m.index : text.length;
}

/**
 * Count `text` in steps of about COUNT_STEP_CHARS characters cut at safe places, stopping as soon as the sum
 * passes `limit`: a text far over its budget costs one step past the budget, not its whole length. The sum over
 * the steps equals the count of the whole (the cuts cross no pre-token). `chars`: how many were encoded.
 */
export function boundedCount(encode: (piece: string) => number, text: string, limit: number, step = COUNT_STEP_CHARS): { count: number; chars: number } {
  if (limit === Infinity || text.length <= step) return { count: encode(text), chars: text.length };
  let count = 0;
  let at = 0;
  while (at < text.length) {
    const cut = safeCut(text, at + step);
    count += encode(text.slice(at, cut));
    at = cut;
    if (count > limit) break;
  }
  return { count, chars: at };
}

/** One shared counter per encoding, so the cache pays off across calls. */
const counters = new Map<EncodingName, TiktokenCounter>();
export function counterFor(encoding: EncodingName): TiktokenCounter {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = new TiktokenCounter(encoding);
    counters.set(encoding, counter);
  }
  return counter;
}
