import { InputError } from './errors';
import { createHash } from 'node:crypto';
import type { Tiktoken as TiktokenType } from 'js-tiktoken/lite';

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
}

const loaded = new Map<EncodingName, TiktokenType>();

/** Names of the encodings loaded in this process so far (activation must leave this empty). */
export function loadedEncodings(): EncodingName[] {
  return [...loaded.keys()];
}

function loadEncoding(name: EncodingName): TiktokenType {
  const existing = loaded.get(name);
  if (existing) return existing;
  // Plain require calls so esbuild keeps each rank table behind a lazy module initialiser.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const ranks =
    name === 'o200k_base'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('js-tiktoken/ranks/o200k_base')
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('js-tiktoken/ranks/cl100k_base');
  const encoder = new Tiktoken(ranks.default ?? ranks);
  loaded.set(name, encoder);
  return encoder;
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

/** An exact counter over a js-tiktoken encoding, with a bounded cache keyed by content hash. */
export class TiktokenCounter implements Tokenizer {
  private readonly cache = new Map<string, number>();
  constructor(
    readonly encoding: EncodingName = 'o200k_base',
    private readonly cacheSize = 4096,
  ) {}

  count(text: string): number {
    if (text.length === 0) return 0;
    const key = contentHash(text);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const n = encodeLength(loadEncoding(this.encoding), text);
    this.cache.set(key, n);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return n;
  }
}

/**
 * js-tiktoken's byte-pair merge is quadratic in the length of one pre-tokenized piece: a 10 KB run without white
 * space (minified code, base64, a clipped log line of one character) took 8 s to count, a 1 MB one would take hours.
 * Runs longer than LONG_RUN (256) characters without white space are therefore counted in LONG_RUN-character pieces. That
 * is exact for every ordinary text (no piece is that long) and, for such runs, can only add the tokens a merge across
 * a piece boundary would have saved: an over-count of at most a few tokens per piece, never a silent overflow.
 */
export const LONG_RUN = 256;
const LONG_RUN_RE = new RegExp(`\\S{${LONG_RUN + 1},}`, 'g');

export function encodeLength(encoder: Pick<TiktokenType, 'encode'>, text: string): number {
  LONG_RUN_RE.lastIndex = 0;
  if (!LONG_RUN_RE.test(text)) return encoder.encode(text, 'all').length;
  let n = 0;
  let at = 0;
  LONG_RUN_RE.lastIndex = 0;
  for (const m of text.matchAll(LONG_RUN_RE)) {
    if (m.index > at) n += encoder.encode(text.slice(at, m.index), 'all').length;
    for (let i = 0; i < m[0].length; i += LONG_RUN) n += encoder.encode(m[0].slice(i, i + LONG_RUN), 'all').length;
    at = m.index + m[0].length;
  }
  if (at < text.length) n += encoder.encode(text.slice(at), 'all').length;
  return n;
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
