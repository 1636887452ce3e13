import type { Policy } from '../policy';
import { groupEvents, renderGroup, splitGroups } from '../session/group';
import type { SessionReport } from '../session/report';
import { foldOlder, type SessionContext } from '../session/select';
import { refForSource } from '../session/store';
import type { Block, Decision, SessionEvent, StageResult } from '../types';
import { makeBlock } from './collect';
import { wrap } from './render';

export type { SessionContext } from '../session/select';

export interface SessionSelection {
  /** Recent groups, oldest first, each a `session_group` block. */
  groups: Block[];
  summary?: Block;
  report: SessionReport;
  /** How many of the newest groups the policy replays raw (keep_recent_groups, the raw budget): fill places them first. */
  reserved: number;
}

/**
 * The session select/compact stage: replay the most recent groups raw, fold the older ones into a structured
 * summary that is validated before reuse (core/session). A rejected summary keeps the raw events for this call,
 * with the reasons in the manifest. Stored history is never changed.
 */
export function selectSession(events: SessionEvent[], source: string, policy: Policy, context: SessionContext = {}): StageResult<SessionSelection> {
  const { groups, orphans, warnings } = groupEvents(events, source);
  const { older, recent } = splitGroups(groups, policy, context.tokenizer);
  const compacted: Decision[] = [];
  const rejected: Decision[] = [];
  let summary: Block | undefined;
  let report: SessionReport['summary'];
  const folded = older.length > 0 ? foldOlder(older, events, source, context) : undefined;
  if (folded?.text !== undefined) {
    summary = makeBlock(policy, 'session_summary', `${source}#summary`, 'session', folded.text, { title: 'Session summary' });
    if (context.tokenizer) Object.assign(summary, { tokens: context.tokenizer.count(wrap(summary)), exact: true });
    const { decision, info } = folded.record(summary.tokens);
    compacted.push(decision);
    report = info;
  } else if (folded) {
    const { decision, info } = folded.record();
    rejected.push(decision);
    report = info;
  }
  const raw = summary ? groups.filter((g) => !older.includes(g)) : groups;
  const count = (list: typeof groups) => list.reduce((n, g) => n + g.events.length, 0);
  const blocks = raw.map((g) => {
    const block = makeBlock(policy, 'session_group', `${source}#${g.events[0].id}`, 'session', renderGroup(g), { events: g.events, groupIndex: g.index });
    return Object.assign(block, { priority: g.index });
  });
  return {
    value: {
      groups: blocks,
      summary,
      reserved: recent.length,
      report: {
        stored: events.length,
        kept_raw: count(raw),
        compacted: summary ? count(older) : 0,
        omitted: orphans.length,
        store: context.store ?? refForSource(source),
        ...(report ? { summary: report } : {}),
      },
    },
    decisions: { compacted, rejected, warnings },
  };
}
