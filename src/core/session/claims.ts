import { stem } from '../relevance/terms';
import type { SessionEvent } from './event';
import { LEXICON, type Lexicon } from './vocabulary';

/**
 * Claims: the clauses of session events, each classified by how it is worded. The extractive fallback and the
 * summary validation share this reading, so the fallback never produces what validation would reject.
 */

/** hypothesis: a question or an unconfirmed claim; proposal: a plan, draft or next step; action: a tool call. */
export type ClaimKind = 'hypothesis' | 'proposal' | 'statement' | 'action';

export interface Claim {
  event: string;
  type: SessionEvent['type'];
  kind: ClaimKind;
  text: string;
  words: Set<string>;
}

/** A question or an unconfirmed claim (vocabulary.ts `uncertain`, or a question mark). */
export const UNCERTAIN = LEXICON.uncertain;
/** A plan, draft or next step (vocabulary.ts `proposal`). */
export const PROPOSAL = LEXICON.proposal;
/** A request to the agent worded as a question ("can you look at…") is not an open question. */
export const REQUEST = LEXICON.request;

/** The content words of a text, stemmed. */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9_]+/)) {
    if ((raw.length < 2 && !/\d/.test(raw)) || LEXICON.stopWords.has(raw)) continue;
    out.add(stem(raw));
  }
  return out;
}

/** The share of `a`'s content words that `b` also holds (0 when `a` has none). */
export function coverage(a: Set<string>, b: Set<string>): number {
  if (a.size === 0) return 0;
  let hit = 0;
  for (const w of a) if (b.has(w)) hit++;
  return hit / a.size;
}

/**
 * Where a clause ends: after `.`, `!` or `?` and a space (a sentence may start with a lower-case identifier such as
 * `views.py` or `go test`), except after a common abbreviation; and after a semicolon.
 */
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no)\.)(?<=[.!?])\s+(?=\S)|(?<=;)\s+/i;

/** Split prose into clauses: sentences, and the parts of a sentence joined by semicolons. */
export function clauses(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => s.length > 3);
}

export function classify(text: string, lexicon: Lexicon = LEXICON): ClaimKind {
  if (lexicon.uncertain.test(text) && !lexicon.request.test(text)) return 'hypothesis';
  if (lexicon.proposal.test(text)) return 'proposal';
  return 'statement';
}

const MAX_RESULT_LINES = 200;

/** Every claim of the events. Tool results are evidence (statements, line by line); tool calls are actions. */
export function claimsOf(events: SessionEvent[]): Claim[] {
  const out: Claim[] = [];
  const add = (e: SessionEvent, kind: ClaimKind, text: string) => out.push({ event: e.id, type: e.type, kind, text, words: words(text) });
  for (const e of events) {
    if (e.type === 'tool_call') add(e, 'action', `${e.tool ?? ''} ${e.text}`);
    else if (e.type === 'tool_result') {
      for (const line of e.text.split('\n').slice(0, MAX_RESULT_LINES)) if (line.trim()) add(e, 'statement', line.trim());
    } else for (const c of clauses(e.text)) add(e, classify(c), c);
  }
  return out;
}

/** The wording of an item without what it quotes: code spans, quoted strings, JSON objects and URLs. */
export function ownWording(text: string): string {
  return text.replace(/`[^`]*`|"[^"]*"|\{[^}]*\}|https?:\/\/\S+/g, ' ');
}

/** The claim that best supports `text`, preferring statements and actions over hypotheses and proposals on ties. */
export function bestSupport(text: string, claims: Claim[]): { claim: Claim; score: number } | undefined {
  const target = words(text);
  let best: { claim: Claim; score: number } | undefined;
  const firm = (k: ClaimKind) => k === 'statement' || k === 'action';
  for (const claim of claims) {
    const score = coverage(target, claim.words);
    if (!best || score > best.score || (score === best.score && firm(claim.kind) && !firm(best.claim.kind))) best = { claim, score };
  }
  return best;
}
