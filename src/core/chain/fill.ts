import { headingsOf, normalizeHeading, sectionOf } from '../sources/documents';
import { estimateTokens } from '../tokens';
import { formatNumber as num } from '../../view-model/format';
import type { Block, Decision, StageResult } from '../types';

export interface Filled {
  selected: Block[];
  /** Candidates that did not fit: they go to the index, available on demand. */
  overflow: Block[];
  /** Session groups that did not fit. */
  droppedGroups: Block[];
  /** Overflowing candidates the index's own budget has no line for (those ranked last are left out first). */
  unlisted: Block[];
  /** Tokens of the flexible zone nothing took (what tool output may grow into, chain/grow.ts). */
  left: number;
}

export interface FillInput {
  /** Flexible documents, decisions, source and tool results that survived pruning. */
  candidates: Block[];
  /** Recent session groups, oldest first. */
  groups: Block[];
  /** Tokens left for the flexible zone once the protected zone is counted. */
  available: number;
  /** Per-zone caps (tool results). */
  toolResultsCap: number;
  /** Trim a tool result again to at most `maxTokens` (its digest); undefined when it cannot shrink that far. */
  shrink?: (block: Block, maxTokens: number) => Block | undefined;
  /**
   * What a block costs in the request, exact up to `room` and any number above it when it does not fit
   * (chain/placement.ts). Default: the block's `tokens`.
   */
  cost?: (block: Block, room: number) => number;
  /** A block's own tokens (its wrapped text, what the zones count), exact up to `limit`. Default: its `tokens`. */
  size?: (block: Block, limit: number) => number;
  /**
   * The session's share: how many of the newest groups are placed before the candidates (the recent groups the
   * policy replays raw, session/group.ts replayStart). The older groups take what the candidates leave. Default 0.
   */
  reservedGroups?: number;
  /** What listing a block that did not fit adds to the index of available documents (0 for what is not listed). */
  listCost?: (block: Block) => number;
  /** What the index's own element adds when the first block is listed (0 when the request already has an index). */
  listWrapper?: number;
  /**
   * The index's own budget: the most its lines for left-out candidates may take (default: no limit). Only what the
   * index can still use is held back from the fill; a candidate left out once the budget is spent is not listed
   * (`unlisted`), and the index says how many it left out.
   */
  indexBudget?: number;
}

/**
 * The fill, on exact token counts. The order of the flexible zone:
 * 1. every candidate is sure of its line in the index of available documents (what a left-out document becomes),
 *    up to the index's own budget (index-block.ts): the room held back is the smaller of the lines not yet decided and
 *    what is left of that budget, so 5 000 candidates hold the budget, not 5 000 lines; left-out candidates are
 *    listed in the fill's order (priority × relevance) while the budget lasts;
 * 2. what the user included (`meta.override: include`), then the session's share: the newest groups the policy
 *    replays raw (`reservedGroups`), newest first, never split;
 * 3. candidates by priority × relevance, highest first (a priority the policy set counts whole), skipping a block
 *    that does not fit and trying the next; a decision that does not fit whole is sent as its decision section when
 *    that fits; tool results also stay inside their zone cap;
 * 4. older session groups (raw only because their summary was rejected) take what is left, never split, no gaps.
 * A plain priority fill would rank recent history among the candidates; placing it first keeps documents, which a read_document call
 * can fetch later, from crowding out the turns that say where the work stands, which nothing can fetch back.
 */
export function fill(input: FillInput): StageResult<Filled> {
  const selected: Block[] = [];
  const overflow: Block[] = [];
  const notes: Decision[] = [];
  const cost = input.cost ?? ((b: Block) => b.tokens);
  const size = input.size ?? ((b: Block) => b.tokens);
  let remaining = input.available;
  let toolRoom = input.toolResultsCap;

  const ordered = [...input.candidates].sort((a, b) => weight(b) - weight(a) || b.priority - a.priority || a.source.localeCompare(b.source));
  // A candidate left out is listed in the index instead, and that line is sent too: the lines of the candidates not
  // yet decided (and the index's own element, until one is paid) are held back from the room of each decision.
  const lines = new Map(ordered.map((b) => [b, input.listCost?.(b) ?? 0]));
  let undecided = [...lines.values()].reduce((n, c) => n + c, 0);
  let element = undecided > 0 ? (input.listWrapper ?? 0) : 0;
  // What is left of the index's budget for lines; the room held back for lines is never more than that.
  let budget = input.indexBudget ?? Infinity;
  const held = () => Math.min(undecided, budget);
  const unlisted: Block[] = [];

  // The session's share first, newest first and never split: the recent events the policy replays raw are not
  // crowded out by documents (zones: flexible zones yield only the room they leave unused).
  const keptGroups: Block[] = [];
  const droppedGroups: Block[] = [];
  const omitted: Decision[] = [];
  let next = input.groups.length - 1;
  const placeGroups = (down: number, after: string) => {
    for (; next >= down; next--) {
      const g = input.groups[next];
      // Every candidate keeps at least its line in the index: the session's share is what is left beside those lines.
      const room = Math.max(0, remaining - held() - (held() > 0 ? element : 0));
      const need = droppedGroups.length === 0 ? cost(g, room) : undefined;
      if (need !== undefined && need <= room) {
        keptGroups.unshift(g);
        remaining -= need;
        continue;
      }
      const reason = need !== undefined ? `session events omitted: at least ${need} tokens needed, ${room} left of the budget ${after}` : 'session events omitted: older than events that did not fit (the session is replayed without gaps, so older events go too)';
      droppedGroups.unshift(g);
      omitted.unshift({ source: g.source, kind: 'session_group', reason, tokens: Math.max(g.tokens, need ?? 0), events: g.meta.events?.length ?? 0 });
    }
  };
  const place = (whole: Block) => {
    const line = lines.get(whole) ?? 0;
    undecided -= line;
    // Listed if it does not fit, while the index's budget has room for its line.
    const own = line <= budget ? line : 0;
    const free = Math.max(0, remaining - held() - (own > 0 || held() > 0 ? element : 0));
    const isTool = whole.kind === 'tool_result';
    // The budget is checked in request tokens (cost); the tool-results zone in the blocks' own tokens (size).
    const zone = isTool ? toolRoom : Infinity;
    const measure = (block: Block) => ({ block, need: cost(block, free), size: isTool ? size(block, zone) : 0 });
    const fits = (m: { need: number; size: number }) => m.need <= free && m.size <= zone;
    let chosen = measure(whole);
    if (!fits(chosen)) {
      const section = whole.kind === 'decision' ? decisionSection(whole) : undefined;
      const shrunk = isTool && input.shrink ? input.shrink(whole, Math.min(zone, free)) : undefined;
      const smaller = section ?? shrunk;
      const other = smaller ? measure(smaller) : undefined;
      // Kept when it fits; when it does not either, its figures are the ones the reason gives ("needed even trimmed").
      // Costs over the room are compared as "over the room", then by the blocks' own figures: past the room, a
      // bounded count depends on what was counted before (an exact count known from an earlier call, else one piece
      // past the room), and the same inputs must give the same request.
      const pastRoom = (m: { need: number }) => Math.min(m.need, free + 1);
      if (other && (fits(other) || pastRoom(other) < pastRoom(chosen) || (pastRoom(other) === pastRoom(chosen) && other.block.tokens < chosen.block.tokens))) chosen = other;
    }
    const { block, need } = chosen;
    if (!fits(chosen)) {
      // Its figure (the index's estimated-tokens) is its estimate, and never at or below the room it did not fit:
      // not the bounded count itself, which past the room depends on what earlier calls counted.
      const floor = Math.min(need, free + 1);
      const over = floor > block.tokens ? { ...block, tokens: floor } : block;
      overflow.push(over);
      const listed = line === 0 || own > 0;
      const reason = listed ? overflowReason(over, free, zone) : `${overflowReason(over, free, zone)}; not listed either: the index's budget (${num(input.indexBudget ?? 0)} tokens) was spent on documents ranked before it (priority × relevance)`;
      notes.push({ source: block.source, kind: block.kind, reason, tokens: over.tokens, limit: isTool && toolRoom < free ? 'zone' : 'budget' });
      if (!listed) unlisted.push(over);
      else if (line > 0) {
        remaining = Math.max(0, remaining - line - element);
        budget -= line;
        element = 0;
      }
      return;
    }
    selected.push(block);
    remaining -= need;
    if (isTool) toolRoom -= chosen.size;
  };
  // What the user included comes before the session's share (an include that does not fit refuses the call).
  const included = ordered.filter((b) => b.meta.override === 'include');
  included.forEach(place);
  placeGroups(input.groups.length - Math.min(input.reservedGroups ?? 0, input.groups.length), 'for the recent session events (after the protected zone and an index line for each candidate document)');
  ordered.filter((b) => !included.includes(b)).forEach(place);
  placeGroups(0, 'once documents and tool output were placed');
  const left = Math.max(0, remaining - held() - (held() > 0 ? element : 0));
  return { value: { selected: [...selected, ...keptGroups], overflow, droppedGroups, unlisted, left }, decisions: { indexed: notes.filter((n) => n.kind !== 'tool_result'), rejected: [...notes.filter((n) => n.kind === 'tool_result'), ...omitted] } };
}

/** Which limit bound: the tool-results zone cap when it is the tighter one, else the whole budget. */
function overflowReason(block: Block, remaining: number, toolRoom: number): string {
  // Whether it is then in the index is for the manifest to say (report/derive.ts), from the index sent.
  if (block.kind !== 'tool_result') return `did not fit the budget (${num(remaining)} tokens left)`;
  const where = `the full output stays at ${block.meta.trim?.reference ?? block.source}`;
  return toolRoom < remaining
    ? `not sent: over the tool-results zone cap (${num(toolRoom)} tokens left in the zone, ${num(block.tokens)} needed even trimmed); ${where}`
    : `not sent: over the budget (${num(remaining)} tokens left, ${num(block.tokens)} needed even trimmed); ${where}`;
}

/** Fill order: the priority, scaled by relevance unless the policy (or the file) set the priority. */
export function weight(b: Block): number {
  const r = b.meta.relevance;
  return r && !r.prioritized ? b.priority * Math.min(1, r.score) : b.priority;
}

/** A decision record cut to its title and decision section (Nygard `## Decision`, MADR `## Decision Outcome`). */
export function decisionSection(block: Block): Block | undefined {
  const h = headingsOf(block.text).find((x) => /^decision( outcome)?$/.test(normalizeHeading(x.text)));
  if (!h) return undefined;
  const part = sectionOf(block.text, h);
  const lines = block.text.split('\n').length;
  const text = [`# ${block.meta.title ?? block.source}`, '', `(decision section only, lines ${part.startLine + 1}-${part.endLine + 1} of ${lines}; read_document("${block.source}") returns the whole record)`, '', part.text].join('\n');
  return { ...block, text, tokens: estimateTokens(text), exact: false, meta: { ...block.meta, excerpt: `decision section only (the whole record is ${block.tokens} tokens)` } };
}
