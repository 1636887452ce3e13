import { countUpTo, type Tokenizer } from '../tokens';
import { Lru } from '../lru';
import { sameShape, type Shape } from './wrap-memo';
import type { Block } from '../types';
import { pieces, type RequestCounter } from './request-count';
import type { Policy } from '../policy';
import { indexBlock, isIndexable } from './index-block';
import { renderIndex, wrap, wrapped } from './render';

/**
 * What a flexible block costs in the request, counted exactly and only as far as the room it is checked against
 * (placement uses exact counts, never a fixed characters-per-token ratio).
 *
 * A document, a decision, source code or a tool result goes into the task's user message as its wrapped text
 * followed by the `\n\n` that joins it to the next block, inside a JSON string: so its cost is the count of that
 * text JSON-escaped. It is counted in the same pieces the request counter cuts the serialized request into
 * (request-count.ts), each piece through the tokenizer's own cache: when the request is counted at the end, the
 * pieces inside a placed block are already known. The count stops as soon as it passes the room: a block far over
 * the budget costs one piece past the room, never its whole length.
 *
 * A session group becomes messages of its own (turns, tool calls, tool results): its cost is what it adds to a
 * request of its own, after a bounded check of its text against the room.
 *
 * Costs, and the bounds learnt when a block did not fit, are kept per tokenizer between assemblies by content hash:
 * the same text is never counted twice, and a re-assembly after a one-document edit counts that document only.
 */
export class Placement {
  private readonly known: Map<string, Known>;
  private readonly lines: Lru<string, { fields: Shape; line: number }[]>;
  private empty?: number;
  private element?: number;

  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly counter: RequestCounter,
  ) {
    let known = MEMO.get(tokenizer);
    if (!known) MEMO.set(tokenizer, (known = new Map()));
    this.known = known;
    let lines = LINES.get(tokenizer);
    if (!lines) LINES.set(tokenizer, (lines = new Lru(MEMO_SIZE)));
    this.lines = lines;
  }

  /** The block's cost in the request: exact when at most `room`; otherwise some number above `room`. */
  cost(block: Block, room: number): number {
    if (block.kind === 'session_group') return this.groupCost(block, room);
    // Keyed by what the wrapped text is made of (wrap-memo.ts): a known block is neither wrapped (redacted, escaped) nor counted again.
    const entry = wrapped(block);
    return this.bounded(entry.id, room, () => pieces(JSON.stringify(entry.text + SEPARATOR).slice(1, -1)));
  }

  /** The block's own tokens (its wrapped text, as the manifest and the zones count them): exact up to `limit`. */
  size(block: Block, limit: number): number {
    return block.exact ? block.tokens : countUpTo(this.tokenizer, wrap(block), limit);
  }

  /**
   * What listing `block` in the index of available documents adds to the request, as fill would leave it out: its
   * line, and one token for the figure a bounded count may raise. 0 for what the index does not list.
   */
  listCost(policy: Policy, block: Block): number {
    if (!isIndexable(block)) return 0;
    // The line depends only on what the index says of the block (index-block.ts), never on the policy.
    const fields = listFields(block);
    let bySource = this.lines.get(block.source);
    const known = bySource?.find((l) => sameShape(l.fields, fields));
    if (known) return known.line;
    const alone = indexBlock(policy, [block], new Set([block]));
    const line = alone ? this.cost(alone, Infinity) - this.listWrapper() + 1 : 0;
    if (!bySource) this.lines.set(block.source, (bySource = []));
    // The few last lines of a source (its score moves as the task changes), the oldest first to go.
    if (bySource.length >= 4) bySource.shift();
    bySource.push({ fields, line });
    return line;
  }

  /** The index's own element, empty. */
  listWrapper(): number {
    return (this.element ??= this.cost(EMPTY_INDEX, Infinity));
  }

  private groupCost(group: Block, room: number): number {
    // The messages hold every event's text, escaped: a text over the room is a group over the room.
    const text = countUpTo(this.tokenizer, group.text, room);
    if (text > room) return text;
    this.empty ??= this.counter.count([]);
    return this.counter.count([group]) - this.empty;
  }

  private bounded(key: string, room: number, parts: () => string[]): number {
    const seen = this.known.get(key);
    if (seen?.exact !== undefined) return seen.exact;
    if (seen?.above !== undefined && seen.above >= room) return seen.above + 1;
    let sum = 0;
    for (const part of parts()) {
      sum += countUpTo(this.tokenizer, part, room - sum);
      if (sum > room) {
        // The whole costs at least `sum`, which is more than this room: say so next time without counting.
        this.remember(key, { above: sum - 1 });
        return sum;
      }
    }
    this.remember(key, { exact: sum });
    return sum;
  }

  private remember(key: string, value: Known): void {
    this.known.delete(key);
    this.known.set(key, value);
    if (this.known.size > MEMO_SIZE) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }
}

const EMPTY_INDEX: Block = { id: 'index:empty', kind: 'index', source: 'builtin:index', trust: 'harness', priority: -1, mandatory: false, text: renderIndex([]), tokens: 0, exact: false, meta: {} };

/**
 * What a block's line in the index is made of besides its source (index-block.ts indexBlock, the block listed alone as
 * left out), as plain values compared one by one: its tags last, after their number (none is not an empty list).
 */
export function listFields(b: Block): Shape {
  const m = b.meta;
  const fields: unknown[] = [b.kind === 'decision', m.title, m.summary, b.tokens, m.status, m.supersededBy, m.relevance?.score, m.tags?.length ?? -1];
  if (m.tags) fields.push(...m.tags);
  return fields;
}

/** What joins a block to the next one in its message (render.ts). */
const SEPARATOR = '\n\n';
const MEMO_SIZE = 8192;

interface Known {
  exact?: number;
  /** The cost is more than this. */
  above?: number;
}

const MEMO = new WeakMap<Tokenizer, Map<string, Known>>();
const LINES = new WeakMap<Tokenizer, Lru<string, { fields: Shape; line: number }[]>>();
