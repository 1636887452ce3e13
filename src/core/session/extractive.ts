import { classify, clauses, coverage, REQUEST, words } from './claims';
import { constraintsInPlay, keepsConstraint, type Constraint } from './constraints';
import type { SessionEvent } from './event';
import type { EventGroup } from './group';
import { emptySummary, LIST_FIELDS, type SessionSummary } from './schema';
import { phraseMatcher, VOCABULARY } from './vocabulary';

/** What the fallback needs besides the events: the constraints to carry and the paths that exist. */
export interface FallbackContext {
  constraints: Constraint[];
  knownSources: string[];
}

export const FALLBACK_PRODUCER = 'extractive';
export const FALLBACK_LABEL = 'extractive fallback (no model configured): sentences copied from the events, not rewritten';

/** A user's directive, or an assistant saying what it drops or keeps; an assistant statement of evidence (vocabulary.ts). */
const USER_DECISION = phraseMatcher(VOCABULARY.userDecision);
const ASSISTANT_DECISION = phraseMatcher(VOCABULARY.assistantDecision);
const FACT = phraseMatcher(VOCABULARY.fact);
const FAILURE = phraseMatcher(VOCABULARY.failure, true);
const PATH = /(?:^|[\s(`'"[])((?:[\w.-]+\/)*[\w.-]+\.(?:md|log|java|kt|ts|tsx|js|py|go|rs|yaml|yml|json|xml|txt))\b/g;
const MAX_ITEM = 240;

const clip = (text: string) => (text.length > MAX_ITEM ? text.slice(0, MAX_ITEM - 1) + '…' : text);

/** Add unless the list already holds the same statement (the same content words). */
function add(list: string[], text: string): void {
  const w = words(text);
  if (w.size === 0) return;
  if (list.some((item) => coverage(w, words(item)) === 1 && coverage(words(item), w) === 1)) return;
  list.push(clip(text));
}

/** A path mentioned in the events, as the workspace path it names (exact, or the one path ending with it). */
function resolvePath(mention: string, known: string[]): string | undefined {
  const m = mention.replace(/^\.\//, '');
  if (known.includes(m)) return m;
  const endings = known.filter((k) => k.endsWith('/' + m));
  return endings.length === 1 ? endings[0] : undefined;
}

function actionText(call: SessionEvent, result: SessionEvent | undefined): string {
  const args = call.text.replace(/\s+/g, ' ').trim();
  const first = result?.text.split('\n')[0].trim() ?? '';
  const outcome = !result ? ' (no result recorded)' : FAILURE.test(first) ? ` → failed: ${first}` : '';
  return `Ran ${call.tool ?? 'a tool'} (${call.call_id}) ${args}${outcome}`;
}

/**
 * The deterministic extractive fallback used when no model is configured (the dry-run default). It copies
 * clauses, it never rewrites them: a hypothesis stays worded as one and lands in unresolved_questions, a
 * proposal never becomes a completed action, and a quoted constraint is carried over verbatim.
 */
export function extractiveSummary(groups: EventGroup[], context: FallbackContext): SessionSummary {
  return extractiveFallback(groups, context).summary;
}

/** At most this many items per list (the newest), so the protected summary stays bounded however long the session. */
export const FALLBACK_MAX_ITEMS = 8;
export const FALLBACK_MAX_SOURCES = 12;

/** The fallback and how many older items it left out to stay within FALLBACK_MAX_ITEMS per list. */
export function extractiveFallback(groups: EventGroup[], context: FallbackContext): { summary: SessionSummary; leftOut: number } {
  const events = groups.flatMap((g) => g.events);
  const summary = emptySummary();
  const firstUser = events.find((e) => e.type === 'user');
  const opening = firstUser ? clauses(firstUser.text)[0] ?? firstUser.text.trim() : '';
  summary.objective = clip(opening || 'Continue the session.');
  let lastProposal: string | undefined;
  for (const e of events) {
    for (const m of e.text.matchAll(PATH)) {
      const known = resolvePath(m[1], context.knownSources);
      if (known && !summary.sources.includes(known)) summary.sources.push(known);
    }
    if (e.type === 'tool_call') {
      add(summary.completed_actions, actionText(e, events.find((r) => r.type === 'tool_result' && r.call_id === e.call_id)));
      continue;
    }
    if (e.type === 'tool_result') continue;
    for (const c of clauses(e.text)) {
      if (e === firstUser && c === opening) continue;
      const kind = REQUEST.test(c) ? 'request' : classify(c);
      if (kind === 'hypothesis') add(summary.unresolved_questions, c);
      else if (kind === 'proposal' && e.type === 'assistant') lastProposal = c;
      else if (kind === 'statement' && e.type === 'assistant' && FACT.test(c)) add(summary.established_facts, c);
      else if (kind !== 'request' && (e.type === 'user' ? USER_DECISION : ASSISTANT_DECISION).test(c)) add(summary.decisions, c);
    }
  }
  if (lastProposal) summary.next_step.push(clip(lastProposal));
  let leftOut = 0;
  for (const f of LIST_FIELDS) {
    const max = f === 'sources' ? FALLBACK_MAX_SOURCES : FALLBACK_MAX_ITEMS;
    if (summary[f].length > max) {
      leftOut += summary[f].length - max;
      summary[f] = summary[f].slice(-max);
    }
  }
  const items = [summary.objective, ...LIST_FIELDS.flatMap((f) => summary[f])];
  for (const c of constraintsInPlay(context.constraints, events)) {
    if (!keepsConstraint(c, items)) summary.decisions.push(`${c.text} (${c.source})`);
  }
  return { summary, leftOut };
}
