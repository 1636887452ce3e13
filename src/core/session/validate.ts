import type { SessionEvent } from '../types';
import { bestSupport, claimsOf, ownWording, PROPOSAL, UNCERTAIN, type Claim } from './claims';
import { constraintsInPlay, keepsConstraint, type Constraint } from './constraints';
import { checkSchema, LIST_FIELDS, type SessionSummary } from './schema';

/**
 * Validation before reuse. A summary is rejected, with every reason, when: it does not match the schema;
 * a pinned or mandatory constraint the folded events quote is missing from it; a question or hypothesis of the
 * source comes out as an established fact; completed actions are mixed with proposals; it cites a source that
 * does not exist. Plain data in, verdict out.
 */
export interface ValidationInput {
  /** The events the summary covers. */
  events: SessionEvent[];
  /** Constraint statements of the pinned and mandatory blocks (see constraintsFrom). */
  constraints: Constraint[];
  /** Workspace-relative paths that exist (the snapshot's files). */
  knownSources: string[];
  /** Ids of every stored session event (a summary may cite an event). Defaults to the covered events. */
  eventIds?: string[];
  /** The session file's display path, also a valid source. */
  sessionSource?: string;
}

export type Validation = { ok: true; summary: SessionSummary } | { ok: false; reasons: string[] };

/** A claim must hold this share of an item's content words to be where the item came from. */
export const SUPPORT_COVERAGE = 0.6;

const quote = (text: string, max = 120) => `"${text.length > max ? text.slice(0, max - 1) + '…' : text}"`;

export function validateSummary(value: unknown, input: ValidationInput): Validation {
  const { summary, errors } = checkSchema(value);
  if (!summary) return { ok: false, reasons: errors.map((e) => `schema: ${e}`) };
  const reasons: string[] = [];
  const claims = claimsOf(input.events);
  const items = [summary.objective, ...LIST_FIELDS.flatMap((f) => summary[f])];

  for (const c of constraintsInPlay(input.constraints, input.events)) {
    if (!keepsConstraint(c, items)) reasons.push(`${c.kind} constraint missing: ${quote(c.text)} (${c.source}, quoted in ${c.event})`);
  }

  summary.established_facts.forEach((fact, i) => {
    if (UNCERTAIN.test(ownWording(fact))) return reasons.push(`established_facts[${i}] is worded as a hypothesis or question: ${quote(fact)}`);
    const from = origin(fact, claims);
    if (from?.kind === 'hypothesis') reasons.push(`established_facts[${i}] ${quote(fact)} states as a fact what ${from.event} only raises as a hypothesis or question: ${quote(from.text)}`);
  });

  summary.completed_actions.forEach((action, i) => {
    const own = ownWording(action);
    if (PROPOSAL.test(own) || UNCERTAIN.test(own)) return reasons.push(`completed_actions[${i}] is worded as a proposal, not a completed action: ${quote(action)}`);
    const from = origin(action, claims);
    if (from?.kind === 'proposal' || from?.kind === 'hypothesis') {
      reasons.push(`completed_actions[${i}] ${quote(action)} reports as done what ${from.event} only proposes: ${quote(from.text)}`);
    }
  });

  const ids = new Set(input.eventIds ?? input.events.map((e) => e.id));
  const known = new Set(input.knownSources);
  summary.sources.forEach((s, i) => {
    if (!sourceExists(s, known, ids, input.sessionSource)) reasons.push(`sources[${i}] ${quote(s)} does not exist in the workspace or the session`);
  });

  return reasons.length > 0 ? { ok: false, reasons } : { ok: true, summary };
}

/** The claim an item most likely came from, when one supports it well enough. */
function origin(item: string, claims: Claim[]): Claim | undefined {
  const best = bestSupport(item, claims);
  return best && best.score >= SUPPORT_COVERAGE ? best.claim : undefined;
}

/** A workspace path (optionally with `#anchor` or `:line`), an event id (`e09`, `session:e09`), or the session file. */
export function sourceExists(source: string, known: Set<string>, ids: Set<string>, sessionSource?: string): boolean {
  const s = source.trim().replace(/^\.\//, '');
  if (s === '') return false;
  if (known.has(s) || s === sessionSource) return true;
  const path = s.replace(/#.*$/, '').replace(/:\d+(?::\d+)?(?:-\d+)?$/, '');
  if (known.has(path) || path === sessionSource) return true;
  const event = s.replace(/^session:/, '').replace(sessionSource ? new RegExp(`^${escapeRegExp(sessionSource)}#`) : /^$/, '');
  return ids.has(event);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
