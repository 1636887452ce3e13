import { estimateTokens, type Tokenizer } from '../tokens';
import type { Decision } from '../types';
import type { Constraint } from './constraints';
import type { SessionEvent } from './event';
import { foldGroups, type Fold } from './fold';
import { renderGroup, type EventGroup } from './group';
import type { SessionStoreRef, SessionSummaryInfo } from './report';
import { renderSummary } from './schema';
import { activeSummary, rangeLabel, type SummaryRecord } from './summary-store';

export interface SessionContext {
  /** Constraint statements of the pinned and mandatory blocks: a summary must keep those the events quote. */
  constraints?: Constraint[];
  /** Workspace-relative paths that exist: a summary may only cite these (or event ids). */
  knownSources?: string[];
  /** The summary store beside the events: its active summary is used when it covers the folded groups. */
  summaries?: SummaryRecord[];
  /** Exact counter for the before/after figures of the compaction (estimates when absent). */
  tokenizer?: Tokenizer;
  /** The store replayed, for the manifest (default: read from the session source). */
  store?: SessionStoreRef;
}

/** The first line of a summary block: what it covers and who produced it (the fallback is labelled as such). */
export function summaryHeader(range: string, events: number, label: string): string {
  return `Summary of session events ${range} (${events} events), ${label}`;
}

/** The older groups folded: the summary text when validation accepted it, and what the manifest records. */
export interface FoldedOlder {
  fold: Fold;
  /** The summary block's text; absent when the summary was rejected (the raw events are kept). */
  text?: string;
  /** The manifest entry and session info, given the summary block's tokens as sent (accepted summaries only). */
  record(tokens?: number): { decision: Decision; info: SessionSummaryInfo };
}

/** Fold the older groups into a validated summary (stored, or the extractive fallback), with its manifest data. */
export function foldOlder(older: EventGroup[], events: SessionEvent[], source: string, context: SessionContext): FoldedOlder {
  const fold = foldGroups(older, activeSummary(context.summaries ?? []), {
    constraints: context.constraints ?? [],
    knownSources: context.knownSources ?? [],
    eventIds: events.map((e) => e.id),
    sessionSource: source,
  });
  const count = (text: string) => (context.tokenizer ? context.tokenizer.count(text) : estimateTokens(text));
  const tokens_before = older.reduce((n, g) => n + count(renderGroup(g)), 0);
  const range = rangeLabel(fold.covers);
  const common = { producer: fold.producer, ...(fold.storedId ? { summary_id: fold.storedId } : {}), range, events: fold.covers.events, groups: older.length };
  const notes = fold.notes.length ? { notes: fold.notes } : {};
  const label = fold.label;
  if (!fold.validation.ok) {
    const reasons = fold.validation.reasons;
    const reason = `summary rejected, raw events kept for this call: ${reasons.join('; ')}`;
    return {
      fold,
      record: () => ({ decision: { source, kind: 'session_summary', reason, ...common, reasons, ...notes }, info: { status: 'rejected', ...common, label, tokens_before, reasons } }),
    };
  }
  return {
    fold,
    text: renderSummary(fold.summary, summaryHeader(range, fold.covers.events, label)),
    record: (tokens) => ({
      decision: { source, kind: 'session_summary', reason: `folded into a structured summary: ${label}`, ...common, tokens_before, tokens, ...notes },
      info: { status: 'accepted', ...common, label, tokens_before, tokens_after: tokens },
    }),
  };
}
