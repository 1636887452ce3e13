/**
 * The "Not sent" list of the panel: everything the manifest says did not reach the request, grouped, each with its
 * own reason and token figure (estimated unless the chain counted it).
 */
import type { Decision } from '../core/types';

export type NotSentGroup = 'rejected' | 'indexed' | 'degraded' | 'tool_output';

export interface NotSentItem {
  group: NotSentGroup;
  source: string;
  kind: string;
  reason: string;
  tokens?: number;
  /** true only when the chain counted the figure with the tokenizer; otherwise it is an estimate (`~`). */
  exact: boolean;
}

export const NOT_SENT_GROUPS: { group: NotSentGroup; title: string }[] = [
  { group: 'degraded', title: 'Cut or dropped by the budget ladder' },
  { group: 'rejected', title: 'Rejected' },
  { group: 'indexed', title: 'Indexed: available on demand' },
  { group: 'tool_output', title: 'Left out of tool output' },
];

interface NotSentSections {
  rejected: Decision[];
  indexed: Decision[];
  trimmed: Decision[];
  offloaded: Decision[];
  degraded: Decision[];
}

const exactOf = (d: Decision) => d.tokens_exact === true;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function item(group: NotSentGroup, d: Decision, reason = d.reason, tokens = num(d.tokens), exact = exactOf(d)): NotSentItem {
  return { group, source: d.source, kind: String(d.kind), reason, ...(tokens !== undefined ? { tokens } : {}), exact };
}

/**
 * Not sent, in group order: ladder steps that dropped or shrank a block (the tokens it gave up, counted), rejected
 * and indexed blocks (their estimates), and the part of each tool output left out by a trim or an offload.
 */
export function notSentOf(m: NotSentSections): NotSentItem[] {
  const out: NotSentItem[] = [];
  for (const d of m.degraded) {
    const before = num(d.tokens_before);
    const after = num(d.tokens) ?? 0;
    out.push(item('degraded', d, d.reason, before !== undefined ? before - after : undefined, before !== undefined));
  }
  for (const d of m.rejected) out.push(item('rejected', d));
  for (const d of m.indexed) out.push(item('indexed', d));
  for (const d of m.trimmed) {
    const original = num(d.original_tokens);
    // What the trim left out: the original count minus what was kept; exact only when the original was counted.
    const left = original !== undefined ? Math.max(0, original - (num(d.tokens) ?? 0)) : undefined;
    out.push(item('tool_output', d, d.reason, left, d.original_tokens_exact === true));
  }
  for (const d of m.offloaded) out.push(item('tool_output', d, `offloaded whole to ${String(d.path ?? 'the offload store')}: ${d.reason}`));
  const order = NOT_SENT_GROUPS.map((g) => g.group);
  return out.sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
}
