/**
 * What the budget left out: blocks that did not fit (the fill's budget or zone cap, a ladder step), apart from what
 * relevance, a superseding decision or the user left out. The key evidence among them (tool output, source files,
 * decisions: what the task is answered from) is announced at the top of the panel with the window that would have held it.
 */
import type { Decision } from '../core/types';
import { formatNumber } from './format';

/** Key evidence, in the banner's order; a dropped document stays in the list (it is in the index, on demand). */
const EVIDENCE_ORDER = ['tool_result', 'source_code', 'decision'];

/** Dropped to fit: a fill that ran out of budget or zone, a ladder step, or session events the budget left out. */
export function isDroppedToFit(d: Decision): boolean {
  return d.limit === 'budget' || d.limit === 'zone' || typeof d.ladder === 'number' || (d.kind === 'session_group' && d.reason.startsWith('session events omitted'));
}

export interface DroppedEvidence {
  source: string;
  kind: string;
  tokens?: number;
  /** Still listed in the index: the agent can read it on demand. */
  indexed: boolean;
}

/** The key evidence dropped to fit, once per source: tool output first, then source files, then decisions. */
export function droppedEvidence(m: { rejected: Decision[]; indexed: Decision[] }): DroppedEvidence[] {
  const seen = new Set<string>();
  const out: DroppedEvidence[] = [];
  const take = (d: Decision, indexed: boolean) => {
    if (!EVIDENCE_ORDER.includes(d.kind) || !isDroppedToFit(d) || seen.has(d.source)) return;
    seen.add(d.source);
    out.push({ source: d.source, kind: d.kind, ...(typeof d.tokens === 'number' ? { tokens: d.tokens } : {}), indexed });
  };
  m.rejected.forEach((d) => take(d, false));
  m.indexed.forEach((d) => take(d, true));
  return out.sort((a, b) => EVIDENCE_ORDER.indexOf(a.kind) - EVIDENCE_ORDER.indexOf(b.kind));
}

const KIND_WORD: Record<string, string> = { tool_result: 'tool output', decision: 'decision' };

/** A dropped item as the banner names it: the file's name, with what it is unless it is source code. */
export function droppedName(d: DroppedEvidence): string {
  const name = d.source.replace(/^.*\//, '');
  return KIND_WORD[d.kind] ? `${name} (${KIND_WORD[d.kind]})` : name;
}

/**
 * The banner's sentence: "Dropped to fit: application.log (tool output), PaymentController.java — raise the window
 * to 8 200 or exclude a block you do not need." At most `shown` names, then how many more.
 */
export function droppedBanner(items: DroppedEvidence[], windowToFit?: number, shown = 4): string {
  const names = items.slice(0, shown).map(droppedName);
  const more = items.length > shown ? ` and ${items.length - shown} more` : '';
  const fix = windowToFit !== undefined ? `raise the window to ${formatNumber(windowToFit)} or exclude a block you do not need` : 'raise the window or exclude a block you do not need';
  return `Dropped to fit: ${names.join(', ')}${more} — ${fix}.`;
}
