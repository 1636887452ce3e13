import { headingsOf, normalizeHeading, sectionOf } from '../sources/documents';
import { estimateTokens } from '../tokens';
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
    const block = section && section.tokens <= remaining ? section : whole;
    if (block.tokens > remaining || (isTool && block.tokens > toolRoom)) {
      overflow.push(block);
      notes.push({
        source: block.source,
        kind: block.kind,
        reason: isTool
          ? `not sent: over the tool-results zone cap (${Math.min(toolRoom, remaining)} tokens left); the full output stays at ${block.meta.trim?.reference ?? block.source}`
          : `did not fit the budget (${remaining} tokens left): in the index, available on demand`,
        tokens: block.tokens,
      });
      continue;
    }
    selected.push(block);
    remaining -= block.tokens;
    if (isTool) toolRoom -= block.tokens;
  }
  const keptGroups: Block[] = [];
  const droppedGroups: Block[] = [];
  for (let i = input.groups.length - 1; i >= 0; i--) {
    const g = input.groups[i];
    if (droppedGroups.length === 0 && g.tokens <= remaining) {
      keptGroups.unshift(g);
      remaining -= g.tokens;
    } else droppedGroups.unshift(g);
  }
  return { value: { selected: [...selected, ...keptGroups], overflow, droppedGroups }, decisions: { indexed: notes } };
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
