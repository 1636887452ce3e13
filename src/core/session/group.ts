import type { Policy } from '../policy';
import { countUpTo, estimateTokens, type Tokenizer } from '../tokens';
import type { Warning } from '../types';
import type { SessionEvent } from './event';

/** An indivisible run of events: one message, or a tool call with all of its results. */
export interface EventGroup {
  index: number;
  events: SessionEvent[];
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

/** A group as plain text (what its token estimate and the compaction's "before" figure are taken on). */
export function renderGroup(group: EventGroup): string {
  return group.events
    .map((e) => (e.type === 'tool_call' ? `[tool_call ${e.tool ?? ''} ${e.call_id}] ${e.text}` : e.type === 'tool_result' ? `[tool_result ${e.call_id}] ${e.text}` : `[${e.type}] ${e.text}`))
    .join('\n');
}

/** A group's tokens as its block counts them (its rendered text): exact up to `limit` with a tokenizer, else estimated. */
export const groupCost = (g: EventGroup, tokenizer?: Tokenizer, limit = Infinity) => (tokenizer ? countUpTo(tokenizer, renderGroup(g), limit) : estimateTokens(renderGroup(g)));

/**
 * Where raw replay starts: at most `keep_recent_groups` groups, and the newest run of them that fits the raw
 * budget (the compaction trigger, or the session zone cap when smaller). The budget never drops the newest group;
 * keep_recent_groups 0 folds everything.
 * With a tokenizer the groups are counted exactly, newest first, each only as far as the raw budget left.
 */
export function replayStart(groups: EventGroup[], policy: Pick<Policy, 'session' | 'zones'>, tokenizer?: Tokenizer): number {
  const budget = Math.min(policy.session.compaction_trigger_tokens, policy.zones.session?.max_tokens ?? Infinity);
  const first = Math.max(0, groups.length - policy.session.keep_recent_groups);
  if (first >= groups.length) return first;
  // The newest group is always replayed; older ones while the raw budget holds them.
  let raw = groupCost(groups[groups.length - 1], tokenizer, budget);
  let start = groups.length - 1;
  while (start > first) {
    const cost = groupCost(groups[start - 1], tokenizer, budget - raw);
    if (raw + cost > budget) break;
    raw += cost;
    start--;
  }
  return start;
}

/** The older groups (folded) and the recent ones (replayed raw) under the policy. */
export function splitGroups(groups: EventGroup[], policy: Pick<Policy, 'session' | 'zones'>, tokenizer?: Tokenizer): { older: EventGroup[]; recent: EventGroup[] } {
  const start = replayStart(groups, policy, tokenizer);
  return { older: groups.slice(0, start), recent: groups.slice(start) };
}
