import { extractiveFallback, FALLBACK_LABEL, FALLBACK_MAX_ITEMS, FALLBACK_PRODUCER, type FallbackContext } from './extractive';
import type { EventGroup } from './group';
import { mergeSummaries, type SessionSummary } from './schema';
import { rangeLabel, rangeOf, type StoredSummary, type SummaryRange } from './summary-store';
import { validateSummary, type Validation } from './validate';

/**
 * Fold the older groups into one summary: the active stored summary when it covers them (extended by the
 * fallback for groups folded since), else the extractive fallback. The result is validated before reuse.
 */
export interface FoldContext extends FallbackContext {
  /** Ids of every stored event, so a summary may cite one. */
  eventIds: string[];
  sessionSource?: string;
}

export interface Fold {
  summary: SessionSummary;
  producer: string;
  label: string;
  storedId?: string;
  covers: SummaryRange;
  /** Why a stored summary was not used, when there is one. */
  notes: string[];
  validation: Validation;
}

export function labelOf(producer: string, storedId?: string): string {
  const stored = storedId ? ` (stored summary ${storedId})` : '';
  if (producer === FALLBACK_PRODUCER) return `${FALLBACK_LABEL}${stored}`;
  if (producer === 'edit') return `edited by the user${stored}`;
  if (producer.startsWith('model:')) return `produced by the model ${producer.slice(6)}${stored}`;
  return `produced by ${producer}${stored}`;
}

export function foldGroups(older: EventGroup[], stored: StoredSummary | undefined, context: FoldContext): Fold {
  const events = older.flatMap((g) => g.events);
  const covers = rangeOf(events);
  const notes: string[] = [];
  let summary: SessionSummary | undefined;
  let producer = FALLBACK_PRODUCER;
  let label = labelOf(FALLBACK_PRODUCER);
  let storedId: string | undefined;
  let leftOut = 0;
  if (stored) {
    const problem = mismatch(stored, older);
    if (problem) notes.push(`stored summary ${stored.id} (${rangeLabel(stored.covers)}) not used: ${problem}`);
    else {
      storedId = stored.id;
      const end = endGroup(stored, older);
      const rest = older.slice(end + 1);
      if (rest.length === 0) {
        summary = stored.summary;
        producer = stored.producer;
        label = labelOf(producer, stored.id);
      } else {
        const extra = extractiveFallback(rest, context);
        summary = mergeSummaries(stored.summary, extra.summary);
        leftOut = extra.leftOut;
        producer = `${stored.producer}+${FALLBACK_PRODUCER}`;
        const restRange = rangeLabel(rangeOf(rest.flatMap((g) => g.events)));
        label = `${labelOf(stored.producer, stored.id)}, extended by the ${FALLBACK_LABEL} for ${restRange}`;
      }
    }
  }
  if (!summary) {
    const fallback = extractiveFallback(older, context);
    summary = fallback.summary;
    leftOut = fallback.leftOut;
  }
  if (leftOut > 0) label += `; ${leftOut} older items left out (at most ${FALLBACK_MAX_ITEMS} per list)`;
  const validation = validateSummary(summary, {
    events,
    constraints: context.constraints,
    knownSources: context.knownSources,
    eventIds: context.eventIds,
    sessionSource: context.sessionSource,
  });
  return { summary, producer, label, storedId, covers, notes, validation };
}

/** Index of the older group the stored summary ends with, or -1. */
function endGroup(stored: StoredSummary, older: EventGroup[]): number {
  return older.findIndex((g) => g.events.at(-1)?.id === stored.covers.to);
}

function mismatch(stored: StoredSummary, older: EventGroup[]): string | undefined {
  const first = older[0]?.events[0]?.id;
  if (stored.covers.from !== first) return `it starts at ${stored.covers.from}, the folded events start at ${first}`;
  const end = endGroup(stored, older);
  if (end < 0) {
    const inside = older.some((g) => g.events.some((e) => e.id === stored.covers.to));
    return inside ? `it ends inside a group (${stored.covers.to})` : `it covers events replayed raw (up to ${stored.covers.to})`;
  }
  const covered = older.slice(0, end + 1).flatMap((g) => g.events);
  if (rangeOf(covered).hash !== stored.covers.hash) return 'the events it covers have changed since it was made';
  return undefined;
}
