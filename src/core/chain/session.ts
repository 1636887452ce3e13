import type { Policy } from '../policy';
import { estimateTokens, type Tokenizer } from '../tokens';
import type { Block, Decision, SessionEvent, StageResult, Warning } from '../types';
import { makeBlock } from './collect';
import { foldGroups } from '../session/fold';
import type { Constraint } from '../session/constraints';
import { activeSummary, rangeLabel, type SummaryRecord } from '../session/summary-store';
import { renderSummary } from './compact';
import { wrap } from './render';

/** An indivisible run of events: one message, or a tool call with all of its results. */
export interface EventGroup {
  index: number;
  events: SessionEvent[];
}

/** The manifest's session section: stored = kept_raw + compacted + omitted. */
export interface SessionReport {
  stored: number;
  kept_raw: number;
  compacted: number;
  omitted: number;
  summary?: SessionSummaryInfo;
}

/** What happened to the summary of the older groups on this call. */
export interface SessionSummaryInfo {
  status: 'accepted' | 'rejected';
  producer: string;
  label: string;
  summary_id?: string;
  range: string;
  events: number;
  groups: number;
  tokens_before: number;
  tokens_after?: number;
  reasons?: string[];
}

export interface SessionSelection {
  /** Recent groups, oldest first, each a `session_group` block. */
  groups: Block[];
  summary?: Block;
  report: SessionReport;
}

/** Group events so that a tool call is never separated from its results. Orphan results are reported. */
export function groupEvents(events: SessionEvent[], source: string): { groups: EventGroup[]; orphans: SessionEvent[]; warnings: Warning[] } {
  const groups: EventGroup[] = [];
  const orphans: SessionEvent[] = [];
  const warnings: Warning[] = [];
  const openCalls = new Map<string, EventGroup>();
  let current: EventGroup | undefined;
  for (const event of events) {
    if (event.type === 'tool_result') {
      const owner = openCalls.get(event.call_id ?? '');
      if (owner) owner.events.push(event);
      else {
        orphans.push(event);
        warnings.push({ source, line: event.line, message: `tool result ${event.id} has no matching tool call (call_id ${event.call_id}): not replayed` });
      }
      continue;
    }
    if (event.type === 'tool_call') {
      // Parallel calls issued together share one group.
      if (!current || current.events.some((e) => e.type !== 'tool_call' && e.type !== 'tool_result') || current.events.some((e) => e.type === 'tool_result')) {
        current = { index: groups.length, events: [] };
        groups.push(current);
      }
      current.events.push(event);
      if (event.call_id) openCalls.set(event.call_id, current);
      continue;
    }
    current = { index: groups.length, events: [event] };
    groups.push(current);
  }
  return { groups, orphans, warnings };
}

export function renderGroup(group: EventGroup): string {
  return group.events
    .map((e) => (e.type === 'tool_call' ? `[tool_call ${e.tool ?? ''} ${e.call_id}] ${e.text}` : e.type === 'tool_result' ? `[tool_result ${e.call_id}] ${e.text}` : `[${e.type}] ${e.text}`))
    .join('\n');
}

export interface SessionContext {
  /** Constraint statements of the pinned and mandatory blocks: a summary must keep those the events quote. */
  constraints?: Constraint[];
  /** Workspace-relative paths that exist: a summary may only cite these (or event ids). */
  knownSources?: string[];
  /** The summary store beside the events: its active summary is used when it covers the folded groups. */
  summaries?: SummaryRecord[];
  /** Exact counter for the before/after figures of the compaction (estimates when absent). */
  tokenizer?: Tokenizer;
}

/**
 * Where raw replay starts: at most `keep_recent_groups` groups, and the newest run of them that fits the raw
 * budget (the compaction trigger, or the session zone cap when smaller). The budget never drops the newest group;
 * keep_recent_groups 0 folds everything.
 */
export function replayStart(groups: EventGroup[], policy: Policy): number {
  const budget = Math.min(policy.session.compaction_trigger_tokens, policy.zones.session?.max_tokens ?? Infinity);
  let start = Math.max(0, groups.length - policy.session.keep_recent_groups);
  let raw = groups.slice(start).reduce((n, g) => n + groupCost(g), 0);
  while (raw > budget && start < groups.length - 1) {
    raw -= groupCost(groups[start]);
    start++;
  }
  return start;
}

/** The first line of a summary block: what it covers and who produced it (the fallback is labelled as such). */
export function summaryHeader(range: string, events: number, label: string): string {
  return `Summary of session events ${range} (${events} events), ${label}`;
}

export const groupCost = (g: EventGroup) => estimateTokens(renderGroup(g));

/**
 * Session select/compact: replay the most recent groups raw, fold the older ones into a structured summary that
 * is validated before reuse. A rejected summary keeps the raw events for this call, with the reasons in the
 * manifest. Stored history is never changed.
 */
export function selectSession(events: SessionEvent[], source: string, policy: Policy, context: SessionContext = {}): StageResult<SessionSelection> {
  const { groups, orphans, warnings } = groupEvents(events, source);
  const start = replayStart(groups, policy);
  const older = groups.slice(0, start);
  const compacted: Decision[] = [];
  const rejected: Decision[] = [];
  let summary: Block | undefined;
  let folded: EventGroup[] = [];
  let info: SessionSummaryInfo | undefined;
  if (older.length > 0) {
    const fold = foldGroups(older, activeSummary(context.summaries ?? []), {
      constraints: context.constraints ?? [],
      knownSources: context.knownSources ?? [],
      eventIds: events.map((e) => e.id),
      sessionSource: source,
    });
    const eventCount = fold.covers.events;
    const range = rangeLabel(fold.covers);
    const count = (text: string) => (context.tokenizer ? context.tokenizer.count(text) : estimateTokens(text));
    const tokensBefore = older.reduce((n, g) => n + count(renderGroup(g)), 0);
    const common = { producer: fold.producer, ...(fold.storedId ? { summary_id: fold.storedId } : {}), range, events: eventCount, groups: older.length };
    if (fold.validation.ok) {
      const text = renderSummary(fold.summary, summaryHeader(range, eventCount, fold.label));
      summary = makeBlock(policy, 'session_summary', `${source}#summary`, 'session', text, { title: 'Session summary' });
      if (context.tokenizer) Object.assign(summary, { tokens: count(wrap(summary)), exact: true });
      folded = older;
      compacted.push({ source, kind: 'session_summary', reason: `folded into a structured summary: ${fold.label}`, ...common, tokens_before: tokensBefore, tokens: summary.tokens, ...(fold.notes.length ? { notes: fold.notes } : {}) });
      info = { status: 'accepted', ...common, label: fold.label, tokens_before: tokensBefore, tokens_after: summary.tokens };
    } else {
      const reasons = fold.validation.reasons;
      rejected.push({ source, kind: 'session_summary', reason: `summary rejected, raw events kept for this call: ${reasons.join('; ')}`, ...common, reasons, ...(fold.notes.length ? { notes: fold.notes } : {}) });
      info = { status: 'rejected', ...common, label: fold.label, tokens_before: tokensBefore, reasons };
    }
  }
  const raw = groups.filter((g) => !folded.includes(g));
  const blocks = raw.map((g) => {
    const block = makeBlock(policy, 'session_group', `${source}#${g.events[0].id}`, 'session', renderGroup(g), { events: g.events, groupIndex: g.index });
    block.priority = g.index;
    return block;
  });
  const report: SessionReport = {
    stored: events.length,
    kept_raw: raw.reduce((n, g) => n + g.events.length, 0),
    compacted: folded.reduce((n, g) => n + g.events.length, 0),
    omitted: orphans.length,
    ...(info ? { summary: info } : {}),
  };
  return { value: { groups: blocks, summary, report }, decisions: { compacted, rejected, warnings } };
}
