import type { Policy } from '../policy';
import { estimateTokens } from '../tokens';
import type { Block, Decision, SessionEvent, StageResult, Warning } from '../types';
import { makeBlock } from './collect';
import { compactGroups } from './compact';

/** An indivisible run of events: one message, or a tool call with all of its results. */
export interface EventGroup {
  index: number;
  events: SessionEvent[];
}

export interface SessionReport {
  stored: number;
  kept_raw: number;
  compacted: number;
  omitted: number;
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

/**
 * Session select/compact: replay the most recent groups raw (at most `keep_recent_groups`, and no more than the
 * compaction trigger allows), fold the older ones into a structured summary. Stored history is never changed.
 */
export function selectSession(events: SessionEvent[], source: string, policy: Policy): StageResult<SessionSelection> {
  const { groups, orphans, warnings } = groupEvents(events, source);
  const keep = policy.session.keep_recent_groups;
  let start = Math.max(0, groups.length - keep);
  const cost = (g: EventGroup) => estimateTokens(renderGroup(g));
  let raw = groups.slice(start).reduce((n, g) => n + cost(g), 0);
  while (raw > policy.session.compaction_trigger_tokens && start < groups.length - 1) {
    raw -= cost(groups[start]);
    start++;
  }
  const recent = groups.slice(start);
  const older = groups.slice(0, start);
  const compacted: Decision[] = [];
  let summary: Block | undefined;
  if (older.length > 0) {
    const result = compactGroups(older, source);
    summary = makeBlock(policy, 'session_summary', `${source}#summary`, 'session', result.text, { title: 'Session summary' });
    const folded = older.reduce((n, g) => n + g.events.length, 0);
    compacted.push({
      source,
      kind: 'session_summary',
      reason: result.label,
      events: folded,
      range: `${older[0].events[0].id}…${older[older.length - 1].events.at(-1)?.id}`,
      tokens_before: older.reduce((n, g) => n + cost(g), 0),
      tokens: summary.tokens,
    });
  }
  const blocks = recent.map((g) => {
    const block = makeBlock(policy, 'session_group', `${source}#${g.events[0].id}`, 'session', renderGroup(g), { events: g.events, groupIndex: g.index });
    block.priority = g.index;
    return block;
  });
  const report: SessionReport = {
    stored: events.length,
    kept_raw: recent.reduce((n, g) => n + g.events.length, 0),
    compacted: older.reduce((n, g) => n + g.events.length, 0),
    omitted: orphans.length,
  };
  return { value: { groups: blocks, summary, report }, decisions: { compacted, warnings } };
}
