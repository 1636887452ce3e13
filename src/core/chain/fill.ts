import { headingsOf, normalizeHeading, sectionOf } from '../sources/documents';
import { estimateTokens } from '../tokens';
import { formatNumber as num } from '../format';
import type { Block, Decision, StageResult } from '../types';

export interface Filled {
  selected: Block[];
  /** Candidates that did not fit: they go to the index, available on demand. */
  overflow: Block[];
  /** Session groups that did not fit. */
  droppedGroups: Block[];
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
}

/**
 * Seed 000's fill_zone: by priority × relevance, highest first (a priority the policy set counts whole), skipping a
 * block that does not fit and trying the next; a decision that does not fit whole is sent as its decision section when
 * that fits; tool results also stay inside their zone cap. Then the newest session groups take what is left, never split.
 */
export function fill(input: FillInput): StageResult<Filled> {
  const selected: Block[] = [];
  const overflow: Block[] = [];
  const notes: Decision[] = [];
  let remaining = input.available;
  let toolRoom = input.toolResultsCap;
  const ordered = [...input.candidates].sort((a, b) => weight(b) - weight(a) || b.priority - a.priority || a.source.localeCompare(b.source));
  for (const whole of ordered) {
    const isTool = whole.kind === 'tool_result';
    const section = whole.kind === 'decision' && whole.tokens > remaining ? decisionSection(whole) : undefined;
    const room = isTool ? Math.min(toolRoom, remaining) : remaining;
    const shrunk = isTool && whole.tokens > room && input.shrink ? input.shrink(whole, room) : undefined;
    const block = section && section.tokens <= remaining ? section : shrunk && shrunk.tokens <= room ? shrunk : whole;
    if (block.tokens > room) {
      overflow.push(block);
      notes.push({ source: block.source, kind: block.kind, reason: overflowReason(block, remaining, isTool ? toolRoom : Infinity), tokens: block.tokens, limit: isTool && toolRoom < remaining ? 'zone' : 'budget' });
      continue;
    }
    selected.push(block);
    remaining -= block.tokens;
    if (isTool) toolRoom -= block.tokens;
  }
  const keptGroups: Block[] = [];
  const droppedGroups: Block[] = [];
  const omitted: Decision[] = [];
  for (let i = input.groups.length - 1; i >= 0; i--) {
    const g = input.groups[i];
    if (droppedGroups.length === 0 && g.tokens <= remaining) {
      keptGroups.unshift(g);
      remaining -= g.tokens;
      continue;
    }
    const reason =
      droppedGroups.length === 0
        ? `session events omitted: ${g.tokens} tokens needed, ${remaining} left of the budget once documents and tool output were placed`
        : 'session events omitted: older than omitted events (replay has no gaps)';
    droppedGroups.unshift(g);
    omitted.unshift({ source: g.source, kind: 'session_group', reason, tokens: g.tokens, events: g.meta.events?.length ?? 0 });
  }
  return { value: { selected: [...selected, ...keptGroups], overflow, droppedGroups }, decisions: { indexed: notes.filter((n) => n.kind !== 'tool_result'), rejected: [...notes.filter((n) => n.kind === 'tool_result'), ...omitted] } };
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
