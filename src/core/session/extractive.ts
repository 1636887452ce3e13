import { classify, clauses, coverage, words } from './claims';
import { constraintsInPlay, keepsConstraint, type Constraint } from './constraints';
import type { SessionEvent } from './event';
import type { EventGroup } from './group';
import { emptySummary, LIST_FIELDS, type SessionSummary } from './schema';
import { LEXICON, type Lexicon } from './vocabulary';

/** What the fallback needs besides the events: the constraints to carry and the paths that exist. */
export interface FallbackContext {
  constraints: Constraint[];
  knownSources: string[];
  /** The compiled vocabulary (default: vocabulary.ts); tests pass a reduced one to check the summariser is general. */
  lexicon?: Lexicon;
}

export const FALLBACK_PRODUCER = 'extractive';
export const FALLBACK_LABEL = 'extractive fallback (no model configured): sentences copied from the events, not rewritten';

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

function actionText(call: SessionEvent, result: SessionEvent | undefined, lex: Lexicon): string {
  const args = call.text.replace(/\s+/g, ' ').trim();
  const first = result?.text.split('\n')[0].trim() ?? '';
  const outcome = !result ? ' (no result recorded)' : lex.failure.test(first) ? ` → failed: ${first}` : '';
  return `Ran ${call.tool ?? 'a tool'} (${call.call_id}) ${args}${outcome}`;
}

/** "And link ADR-0009", "Also, keep…": the directive starts after the conjunction. */
const LEADING_CONJUNCTION = /^(?:and|also|but|then|so|plus)\b,?\s*/i;

/** One word, then a comma or a colon: the shape of an acknowledgement ("Understood, …", "Agreed, …", "Noted: …"). */
const ACKNOWLEDGEMENT = /^[A-Za-z]+[,:](?=\s|$)/;

/** The event just before: its type, and whether it was a user's directive (held a decision). */
interface Before {
  type?: SessionEvent['type'];
  directive: boolean;
}

/**
 * Where one clause of a user or assistant event goes. By wording first (vocabulary.ts), then by position: the
 * first clause of an assistant's answer to a directive is its acknowledgement ("Understood, no revert."), a
 * decision; an assistant statement right after a tool result reports what the tool showed, evidence.
 */
function placeClause(c: string, type: 'user' | 'assistant', first: boolean, before: Before, lex: Lexicon): 'decisions' | 'established_facts' | 'unresolved_questions' | 'next_step' | undefined {
  if (lex.request.test(c)) return undefined;
  const kind = classify(c, lex);
  if (kind === 'hypothesis') return 'unresolved_questions';
  if (type === 'user') return lex.userDecision.test(c) || lex.directiveStart.test(c.replace(LEADING_CONJUNCTION, '')) ? 'decisions' : undefined;
  if (kind === 'proposal') return 'next_step';
  if (lex.assistantDecision.test(c)) return 'decisions';
  // The answer to a directive opens with its acknowledgement: "Understood, …", "Noted: …", or a clause that reports no evidence.
  if (first && before.directive && (ACKNOWLEDGEMENT.test(c) || !lex.fact.test(c))) return 'decisions';
  return before.type === 'tool_result' || lex.fact.test(c) ? 'established_facts' : undefined;
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
  const lex = context.lexicon ?? LEXICON;
  const summary = emptySummary();
  const firstUser = events.find((e) => e.type === 'user');
  const opening = firstUser ? clauses(firstUser.text)[0] ?? firstUser.text.trim() : '';
  summary.objective = clip(opening || 'Continue the session.');
  let lastProposal: string | undefined;
  let before: Before = { directive: false };
  for (const e of events) {
    for (const m of e.text.matchAll(PATH)) {
      const known = resolvePath(m[1], context.knownSources);
      if (known && !summary.sources.includes(known)) summary.sources.push(known);
    }
    if (e.type === 'tool_call') add(summary.completed_actions, actionText(e, events.find((r) => r.type === 'tool_result' && r.call_id === e.call_id), lex));
    let directive = false;
    const type = e.type;
    if (type === 'user' || type === 'assistant') {
      clauses(e.text).forEach((c, i) => {
        if (e === firstUser && c === opening) return;
        const place = placeClause(c, type, i === 0, before, lex);
        if (place === 'next_step') lastProposal = c;
        else if (place) add(summary[place], c);
        directive ||= type === 'user' && place === 'decisions';
      });
    }
    before = { type: e.type, directive };
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
