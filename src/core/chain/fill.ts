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
 * Seed 000's fill_zone: by priority, highest first, skipping a block that does not fit and trying the next; tool
 * results also stay inside their zone cap. Then the newest session groups take what is left, never split.
 */
export function fill(input: FillInput): StageResult<Filled> {
  const selected: Block[] = [];
  const overflow: Block[] = [];
  const notes: Decision[] = [];
  let remaining = input.available;
  let toolRoom = input.toolResultsCap;
  const ordered = [...input.candidates].sort((a, b) => b.priority - a.priority || a.source.localeCompare(b.source));
  for (const block of ordered) {
    const isTool = block.kind === 'tool_result';
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
