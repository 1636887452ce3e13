import { createHash } from 'node:crypto';
import { serializeRequest, type WireShape } from '../providers/shape';
import { TiktokenCounter, type Tokenizer } from '../tokens';
import type { Block } from '../types';
import { concat } from '../concat';
import { CONTENT_PARTS, render, type NeutralRequest } from './render';

/**
 * Counting the serialized request incrementally. A byte-pair encoding never merges across a pre-tokenizer piece,
 * and in both o200k_base and cl100k_base a piece cannot hold a letter followed by `<`: every such position is a
 * piece boundary, whatever comes before or after. The request is therefore cut there (the envelope's tags, which
 * open every block, all start so: `\n<document`), each piece counted with the counter's content-hash cache, and the
 * counts added. After an edit only the pieces that changed are tokenized; the sum equals a full recount.
 * A counter that is not a byte-pair encoding (a test's) counts the whole text.
 */
export function countIncrementally(tokenizer: Tokenizer, text: string): number {
  if (!(tokenizer instanceof TiktokenCounter)) return tokenizer.count(text);
  const memo = pieceMemo(tokenizer);
  let total = 0;
  for (const piece of pieces(text)) total += memo.count(piece);
  return total;
}

/**
 * Values of this assembly and the one before, keyed by a string itself (no content hash of the whole request on
 * every call). A key known to neither is made anew. Rotated once per assembly (`RequestCounter`), so it holds at
 * most two assemblies' worth.
 */
class TwoAssemblies<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();

  get(key: string, make: (key: string) => V): V {
    let v = this.current.get(key);
    if (v !== undefined) return v;
    v = this.previous.get(key) ?? make(key);
    this.current.set(key, v);
    return v;
  }

  /** The value of `key` in this assembly or the one before, without making one. */
  peek(key: string): V | undefined {
    return this.current.get(key) ?? this.previous.get(key);
  }

  /** A new assembly: what the one before last had and this one has not is forgotten. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}

/**
 * The counts of the pieces of the requests counted in this assembly and the one before. A piece counted in neither
 * is handed to the tokenizer (whose own cache may still know it).
 */
export class PieceMemo extends TwoAssemblies<number> {
  private readonly countPiece: (piece: string) => number;
  constructor(tokenizer: Tokenizer) {
    super();
    this.countPiece = (p) => tokenizer.count(p);
  }

  count(piece: string): number {
    return this.get(piece, this.countPiece);
  }
}

/** The JSON-escaped texts of message parts, of this assembly and the one before (keyed by the part itself). */
const escape = (part: string) => JSON.stringify(part).slice(1, -1);
class EscapeMemo extends TwoAssemblies<string> {
  escaped(part: string): string {
    return this.get(part, escape);
  }
}
const escapes = new EscapeMemo();

/** Messages shorter than this are serialized as they are (escaping them whole costs less than looking up parts). */
export const SPLICE_MIN = 64 * 1024;

/**
 * The request's bytes, exactly `serializeRequest`'s. In the OpenAI shape, which sends each message's content as
 * it is, a large user message is not escaped whole: the body is serialized with a marker in its place, and the
 * marker replaced by the message's parts, each escaped once per text (JSON escapes character by character, so the
 * escaped parts joined are the escaped whole; a part that starts or ends inside a surrogate pair is not spliced).
 * Anything unexpected (another shape, a marker not found exactly once) serializes the plain way.
 */
export function serialize(neutral: NeutralRequest, shape: WireShape, stream: boolean): string {
  return serializeSegments(neutral, shape, stream)?.join('') ?? serializeRequest(neutral, shape, stream);
}

/**
 * `serialize`'s bytes as the pieces they are joined from (the envelope around each spliced message, and its escaped
 * parts), when a message is spliced; undefined when the request serializes the plain way.
 */
export function serializeSegments(neutral: NeutralRequest, shape: WireShape, stream: boolean): string[] | undefined {
  if (shape !== 'openai') return undefined;
  const spliced = new Map<number, readonly string[]>();
  neutral.messages.forEach((m, i) => {
    const parts = CONTENT_PARTS.get(m);
    if (parts && m.content.length >= SPLICE_MIN && parts.every(whole)) spliced.set(i, parts);
  });
  if (spliced.size === 0) return undefined;
  const marker = (i: number) => `\u0000ctxctl-part-${i}\u0000`;
  const marked = { ...neutral, messages: neutral.messages.map((m, i) => (spliced.has(i) ? { ...m, content: marker(i) } : m)) };
  const text = serializeRequest(marked, shape, stream);
  const out: string[] = [];
  let at = 0;
  for (const [i, parts] of spliced) {
    const quoted = JSON.stringify(marker(i));
    const where = text.indexOf(quoted);
    if (where < at || where !== text.lastIndexOf(quoted)) return undefined;
    out.push(text.slice(at, where), '"');
    for (const p of parts) out.push(escapes.escaped(p));
    out.push('"');
    at = where + quoted.length;
  }
  out.push(text.slice(at));
  return out;
}

/** Whether a part begins and ends on whole characters (no half of a surrogate pair at either end). */
function whole(part: string): boolean {
  if (part.length === 0) return true;
  const first = part.charCodeAt(0);
  const last = part.charCodeAt(part.length - 1);
  return !(first >= 0xdc00 && first <= 0xdfff) && !(last >= 0xd800 && last <= 0xdbff);
}

/** The memo of `memos` kept for `tokenizer`, made on first use. */
function perTokenizer<M extends object>(memos: WeakMap<Tokenizer, M>, tokenizer: Tokenizer, make: () => M): M {
  let memo = memos.get(tokenizer);
  if (!memo) memos.set(tokenizer, (memo = make()));
  return memo;
}

const PIECE_MEMOS = new WeakMap<Tokenizer, PieceMemo>();
export function pieceMemo(tokenizer: Tokenizer): PieceMemo {
  return perTokenizer(PIECE_MEMOS, tokenizer, () => new PieceMemo(tokenizer));
}

const LETTER = /^\p{L}$/u;

/**
 * The text cut at every letter-then-`<` boundary; the pieces join back to the text. Found from each `<` (few in a
 * request) rather than by a Unicode regular expression over every character.
 */
export function pieces(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (let lt = text.indexOf('<', 1); lt !== -1; lt = text.indexOf('<', lt + 1)) {
    if (!letterBefore(text, lt)) continue;
    out.push(text.slice(at, lt));
    at = lt;
  }
  out.push(text.slice(at));
  return out;
}

/**
 * What counting a text joined from segments needs of one segment, cut alone at its own letter-then-`<` boundaries:
 * its first and last pieces (which may join the segments around it), the sum of the pieces between, whether it starts
 * with `<` and ends with a letter (a boundary at its start or end then), and its UTF-8 length.
 */
interface Segment {
  head: string;
  headCount?: number;
  /** undefined when the segment holds no boundary of its own: it is one piece with its neighbours. */
  tail?: string;
  middle: number;
  startsLt: boolean;
  endsLetter: boolean;
  bytes: number;
}

const SEGMENT_MEMOS = new WeakMap<Tokenizer, TwoAssemblies<Segment>>();

/**
 * The exact tokens of `segments.join('')`, as countIncrementally counts it, without joining or cutting the whole: the
 * pieces of the joined text are each segment's own pieces, but at a junction, where the last piece of one and the first
 * of the next are one piece unless the next starts with `<` after a letter. A segment seen in this assembly or the one
 * before (a block's escaped text: the same string) is summed from its summary; only the pieces at junctions are looked
 * up anew. Segments must begin and end on whole characters.
 */
export function countSegments(tokenizer: Tokenizer, segments: readonly string[]): number {
  if (!(tokenizer instanceof TiktokenCounter)) return tokenizer.count(segments.join(''));
  const memo = pieceMemo(tokenizer);
  const summaries = segmentMemo(tokenizer);
  const summarize = (seg: string): Segment => {
    const ps = pieces(seg);
    let middle = 0;
    for (let i = 1; i < ps.length - 1; i++) middle += memo.count(ps[i]);
    return { head: ps[0], tail: ps.length > 1 ? ps[ps.length - 1] : undefined, middle, startsLt: seg.charCodeAt(0) === 0x3c, endsLetter: letterBefore(seg, seg.length), bytes: Buffer.byteLength(seg) };
  };
  let total = 0;
  let pending = '';
  let afterLetter = false;
  for (const seg of segments) {
    if (seg.length === 0) continue;
    const s = summaries.get(seg, summarize);
    const boundary = s.startsLt && afterLetter;
    if (s.tail === undefined) {
      if (boundary) {
        total += memo.count(pending);
        pending = seg;
      } else pending += seg;
    } else {
      if (boundary || pending === '') {
        if (pending !== '') total += memo.count(pending);
        total += s.headCount ??= memo.count(s.head);
      } else total += memo.count(pending + s.head);
      total += s.middle;
      pending = s.tail;
    }
    afterLetter = s.endsLetter;
  }
  if (pending !== '') total += memo.count(pending);
  return total;
}

/** The UTF-8 length of `segments.join('')`, each segment's from its summary when it has one. */
function segmentBytes(tokenizer: Tokenizer, segments: readonly string[]): number {
  const summaries = tokenizer instanceof TiktokenCounter ? segmentMemo(tokenizer) : undefined;
  let n = 0;
  for (const seg of segments) n += summaries?.peek(seg)?.bytes ?? Buffer.byteLength(seg);
  return n;
}

function segmentMemo(tokenizer: Tokenizer): TwoAssemblies<Segment> {
  return perTokenizer(SEGMENT_MEMOS, tokenizer, () => new TwoAssemblies<Segment>());
}

/** True when the code point that ends just before `i` is a letter (\p{L}). */
function letterBefore(text: string, i: number): boolean {
  const c = text.charCodeAt(i - 1);
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const high = i >= 2 ? text.charCodeAt(i - 2) : 0;
  const point = c >= 0xdc00 && c <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.slice(i - 2, i) : text[i - 1];
  return LETTER.test(point);
}

/** What the manifest says of the request's stable prefix (tool definitions, system text, rules, pins, session summary). */
export interface CacheReport {
  prefix_tokens: number;
  prefix_hash: string;
  /** Compared with the previous call's hash, when it was given. */
  changed?: boolean;
}

/** Counts requests holding given blocks, in one model's wire shape. */
export class RequestCounter {
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly model: string,
    private readonly outputReserve: number,
    private readonly shape: WireShape,
    private readonly stream: boolean,
    private readonly cacheKey?: string,
  ) {
    if (tokenizer instanceof TiktokenCounter) {
      pieceMemo(tokenizer).rotate();
      segmentMemo(tokenizer).rotate();
    }
    escapes.rotate();
  }

  /**
   * The last request rendered, serialized and counted: enforce counts the blocks it keeps, then the chain renders
   * and counts those very blocks again for the request sent (a 531k-token request was rendered and counted twice).
   */
  private last?: { blocks: readonly Block[]; neutral: NeutralRequest; serialized?: string; segments?: readonly string[]; tokens?: number };

  /** The exact tokens of the request these blocks make. */
  count(blocks: Block[]): number {
    const known = this.sameAsLast(blocks) ? this.last?.tokens : undefined;
    if (known !== undefined) return known;
    const neutral = this.render(blocks);
    const segments = serializeSegments(neutral, this.shape, this.stream);
    // A spliced request is counted from its segments, and joined only when its bytes are asked for (serializedOf).
    if (segments && segments.every(whole)) {
      const tokens = countSegments(this.tokenizer, segments);
      if (this.last) Object.assign(this.last, { serialized: undefined, segments, tokens });
      return tokens;
    }
    const serialized = segments?.join('') ?? serializeRequest(neutral, this.shape, this.stream);
    if (this.last) this.last.serialized = serialized;
    return this.countSerialized(serialized);
  }

  /** The serialized request of these blocks when it is the last one counted (the same objects, in the same order). */
  serializedOf(blocks: Block[]): string | undefined {
    if (!this.sameAsLast(blocks) || !this.last) return undefined;
    if (this.last.serialized === undefined && this.last.segments) this.last.serialized = concat(this.last.segments);
    return this.last.serialized;
  }

  /** The UTF-8 length of the serialized request of these blocks when it is the last one counted. */
  bytesOf(blocks: Block[]): number | undefined {
    if (!this.sameAsLast(blocks) || !this.last) return undefined;
    if (this.last.segments) return segmentBytes(this.tokenizer, this.last.segments);
    return this.last.serialized === undefined ? undefined : Buffer.byteLength(this.last.serialized);
  }

  private sameAsLast(blocks: Block[]): boolean {
    const last = this.last;
    return last !== undefined && last.blocks.length === blocks.length && last.blocks.every((b, i) => b === blocks[i]);
  }

  countSerialized(serialized: string): number {
    const last = this.last;
    if (last?.serialized === serialized && last.tokens !== undefined) return last.tokens;
    const tokens = countIncrementally(this.tokenizer, serialized);
    if (last) Object.assign(last, { serialized, segments: undefined, tokens });
    return tokens;
  }

  /** The neutral request of these blocks; the same blocks (the very objects, in the same order) render once. */
  render(blocks: Block[]): NeutralRequest {
    if (this.last && this.sameAsLast(blocks)) return copyOf(this.last.neutral);
    const neutral = render(blocks, this.model, this.outputReserve);
    if (this.cacheKey) neutral.cacheKey = this.cacheKey;
    this.last = { blocks: [...blocks], neutral: copyOf(neutral) };
    return neutral;
  }

  /** The stable prefix as the provider reads it: the tools, the system text, then the first message up to its cache break. */
  prefix(neutral: NeutralRequest, previousHash?: string): CacheReport {
    const first = neutral.messages[0];
    const parts = [JSON.stringify(neutral.tools), neutral.system, first?.cacheBreak ? first.content.slice(0, first.cacheBreak) : ''];
    const prefix_tokens = parts.reduce((n, p) => n + this.tokenizer.count(p), 0);
    const prefix_hash = createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
    return { prefix_tokens, prefix_hash, ...(previousHash !== undefined ? { changed: previousHash !== prefix_hash } : {}) };
  }
}

/** A copy a caller may change (its lists and messages are its own; the texts are immutable strings). */
function copyOf(n: NeutralRequest): NeutralRequest {
  return { ...n, messages: n.messages.map((m) => ({ ...m, ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c })) } : {}), blocks: [...m.blocks] })), tools: [...n.tools], ...(n.redactions ? { redactions: n.redactions.map((r) => ({ ...r })) } : {}) };
}

/**
 * The OpenAI `prompt_cache_key` of a workspace: a hash of its root, never the path itself. Written as 15 decimal
 * digits, which the tokenizers split into five 3-digit tokens whatever they are: the request costs the same number
 * of tokens in every checkout (a hex hash tokenizes into a varying count, and the budget moved with the path).
 */
export function cacheKeyOf(root: string): string {
  const n = Number.parseInt(createHash('sha256').update(root).digest('hex').slice(0, 12), 16);
  return `ctx-${String(n % 1e15).padStart(15, '0')}`;
}
