import type { Block } from '../types';

/**
 * Growing the evidence zone into the room the fill left. The tool-results zone is a cap for
 * sharing, not a reason to send less evidence than the request has room for: when tokens are left after the fill
 * and a tool output was trimmed, the outputs are trimmed again to the zone plus what was left, shared as before
 * (trim-share.ts: every output with evidence first gets its floor, then a share by evidence), so each log grows
 * errors first (a compact row per template with its count and first/last time, then the first occurrences and
 * their context) and no log is starved.
 */

/** Below this many free tokens a second trim cannot add a template row worth its cost. */
export const MIN_GROWTH = 64;

/**
 * The zone to trim the tool outputs to again, or undefined when there is nothing to grow into: nothing was
 * trimmed, or fewer than MIN_GROWTH tokens are free. A small share of the free room (GROWTH_MARGIN) is held back
 * for what the blocks' own tokens do not count (the JSON escaping of the request), which enforce checks exactly.
 */
export function grownZone(zone: number, left: number, toolBlocks: Block[]): number | undefined {
  const trimmed = toolBlocks.filter((b) => b.kind === 'tool_result' && b.meta.trim?.trimmed && !b.meta.offload);
  if (trimmed.length === 0) return undefined;
  const grow = Math.floor(left * (1 - GROWTH_MARGIN)) - 16;
  if (grow < MIN_GROWTH) return undefined;
  return zone + grow;
}

export const GROWTH_MARGIN = 0.03;

/** Rounds of growth: the second takes what the first left (outputs trimmed under their share, the held-back margin). */
export const GROWTH_ROUNDS = 2;

/** The reason the manifest gives for the grown zone (a warning: the policy's cap was passed, on purpose). */
export function growthMessage(from: number, to: number, left: number): string {
  return `tool-results zone grown from ${from} to ${to} tokens into the ${left} tokens the fill left free, so that tool output and logs send more of their evidence (errors first)`;
}
