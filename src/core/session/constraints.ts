import type { Block, BlockKind, SessionEvent } from '../types';
import { clauses, coverage, words } from './claims';

/**
 * Constraints: the statements of pinned and mandatory blocks (AGENTS.md rules, pins). Those blocks are never
 * summarized, they are re-injected verbatim; but when the folded events quote one, the summary must keep it.
 */
export interface Constraint {
  /** The block's source (workspace path or `pin:` source). */
  source: string;
  kind: BlockKind;
  text: string;
}

/** Kinds that are harness text or the task itself, not constraints a session can quote. */
const NOT_CONSTRAINTS = new Set<BlockKind>(['system_instructions', 'tool_definitions', 'current_task']);
const MIN_WORDS = 3;
/** Share of a constraint's content words an event clause (or a summary item) must hold to quote it. */
export const QUOTE_COVERAGE = 0.75;

function cleanLine(line: string): string {
  return line
    .replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .trim();
}

/** The constraint statements of the mandatory blocks, one per sentence or clause, in block order. */
export function constraintsFrom(blocks: Block[]): Constraint[] {
  const out: Constraint[] = [];
  for (const b of blocks) {
    if (!b.mandatory || NOT_CONSTRAINTS.has(b.kind)) continue;
    for (const line of b.text.split('\n')) {
      if (/^\s*#/.test(line)) continue;
      for (const c of clauses(cleanLine(line))) {
        if (words(c).size >= MIN_WORDS && !out.some((o) => o.text === c)) out.push({ source: b.source, kind: b.kind, text: c });
      }
    }
  }
  return out;
}

export interface QuotedConstraint extends Constraint {
  /** The first event that quotes it. */
  event: string;
}

/** The constraints that a user or assistant event of the folded range quotes. */
export function constraintsInPlay(constraints: Constraint[], events: SessionEvent[]): QuotedConstraint[] {
  const spoken = events
    .filter((e) => e.type === 'user' || e.type === 'assistant')
    .flatMap((e) => clauses(e.text).map((c) => ({ id: e.id, words: words(c) })));
  const out: QuotedConstraint[] = [];
  for (const c of constraints) {
    const need = words(c.text);
    const by = spoken.find((s) => coverage(need, s.words) >= QUOTE_COVERAGE);
    if (by) out.push({ ...c, event: by.id });
  }
  return out;
}

/** true when one of the texts holds the constraint (same test as quoting). */
export function keepsConstraint(constraint: Constraint, texts: string[]): boolean {
  const need = words(constraint.text);
  return texts.some((t) => coverage(need, words(t)) >= QUOTE_COVERAGE);
}
