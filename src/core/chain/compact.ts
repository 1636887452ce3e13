import { stringify } from 'yaml';
import type { EventGroup } from './session';

/** Seed 000's structured summary. */
export interface SessionSummary {
  objective: string;
  established_facts: string[];
  decisions: string[];
  completed_actions: string[];
  unresolved_questions: string[];
  next_step: string[];
  sources: string[];
}

const UNCERTAIN = /\?|\b(may|might|maybe|perhaps|possibly|probably|not (yet )?confirmed|unconfirmed|hypothes[ie]s|unclear|unknown|to be checked|suspect)\b/i;
const FACT = /\b(confirmed|verified|established|reproduced|shows? that|is required|do(es)? not send|returns?|rejects?)\b/i;
const DECISION = /\b(decided|decision|we will|we'll|must|keep|do not|don't|no,|agreed)\b/i;
const NEXT = /\b(next|will|should|propose|plan)\b/i;
const PATH = /(?:^|[\s(`'"])((?:[\w.-]+\/)*[\w.-]+\.(?:md|log|java|kt|ts|tsx|js|py|go|rs|yaml|yml|json|xml|txt))\b/g;

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z"'`])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 3);
}

/**
 * The deterministic extractive fallback used when no model is configured (the dry-run default). It copies
 * sentences; it never rewrites them, so a hypothesis stays worded as one and lands in unresolved_questions.
 */
export function extractiveSummary(groups: EventGroup[]): SessionSummary {
  const events = groups.flatMap((g) => g.events);
  const summary: SessionSummary = { objective: '', established_facts: [], decisions: [], completed_actions: [], unresolved_questions: [], next_step: [], sources: [] };
  const firstUser = events.find((e) => e.type === 'user');
  summary.objective = firstUser ? sentences(firstUser.text)[0] ?? firstUser.text : '';
  const add = (list: string[], s: string) => {
    if (!list.includes(s)) list.push(s);
  };
  for (const e of events) {
    for (const m of e.text.matchAll(PATH)) add(summary.sources, m[1]);
    if (e.type === 'tool_call') {
      add(summary.completed_actions, `Called ${e.tool ?? 'a tool'} (${e.call_id}): ${sentences(e.text)[0] ?? e.text}`.slice(0, 200));
      continue;
    }
    if (e.type === 'tool_result') continue;
    for (const s of sentences(e.text)) {
      if (UNCERTAIN.test(s)) add(summary.unresolved_questions, s);
      else if (e.type === 'user' && DECISION.test(s)) add(summary.decisions, s);
      else if (e.type === 'assistant' && FACT.test(s)) add(summary.established_facts, s);
    }
  }
  const lastAssistant = [...events].reverse().find((e) => e.type === 'assistant');
  const next = lastAssistant ? sentences(lastAssistant.text).filter((s) => NEXT.test(s) && !UNCERTAIN.test(s)) : [];
  summary.next_step = next.slice(-1);
  return summary;
}

export function renderSummary(summary: SessionSummary): string {
  return stringify(summary, { lineWidth: 0 }).trim();
}

export function compactGroups(groups: EventGroup[], _source: string): { text: string; label: string; summary: SessionSummary } {
  const summary = extractiveSummary(groups);
  return { text: renderSummary(summary), label: 'compacted by the extractive fallback (no model configured)', summary };
}
