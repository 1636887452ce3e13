import type { Policy } from '../policy';
import type { Block, Decision } from '../types';
import { statusLabel } from '../sources/adr';
import { makeBlock } from './collect';
import { renderIndex, renderRetired, type IndexEntry } from './render';

/**
 * The index's own budget: what its lines for candidates the fill left out may take, at most
 * INDEX_SHARE of the flexible zone and never more than INDEX_MAX_TOKENS; the room it does not need goes to the fill.
 */
export const INDEX_SHARE = 0.15;
export const INDEX_MAX_TOKENS = 1500;
export function indexBudgetOf(flexible: number): number {
  return Math.min(INDEX_MAX_TOKENS, Math.floor(flexible * INDEX_SHARE));
}

/**
 * The disclosed documents the index's budget lists: those without a relevance score (disclosed by rule) first,
 * then by relevance, highest first, while their lines fit; the first that does not fit ends the list (the rest is
 * less relevant). `spent`: what the listed lines take of the budget.
 */
export function withinIndexBudget(disclosed: Block[], budget: number, lineCost: (b: Block) => number): { listed: Block[]; left: Block[]; spent: number } {
  const score = (b: Block) => b.meta.relevance?.score ?? Infinity;
  const ordered = [...disclosed].sort((a, b) => score(b) - score(a) || a.source.localeCompare(b.source));
  let spent = 0;
  let i = 0;
  for (; i < ordered.length; i++) {
    const cost = lineCost(ordered[i]);
    if (spent + cost > budget) break;
    spent += cost;
  }
  return { listed: ordered.slice(0, i), left: ordered.slice(i), spent };
}

/** The prune stage's "in the index" decisions, for the documents the index's budget left out, say so instead. */
export function leftOutOfIndex(decisions: Decision[], left: Block[], budget: number): Decision[] {
  if (left.length === 0) return decisions;
  const out = new Set(left.map((b) => b.source));
  const note = `left out of the index: its budget of ${budget} tokens was spent on documents ranked higher (by relevance, then path)`;
  // Built once: one copy per reason was 14 MB in a 100 000-file workspace.
  const inIndex = ': in the index (';
  const leftOut = `: ${note} (`;
  const tail = `; ${note}`;
  return decisions.map((d) => (out.has(d.source) ? { ...d, reason: d.reason.includes(inIndex) ? d.reason.replace(inIndex, leftOut) : d.reason + tail } : d));
}

/** What `read_document` can fetch, and so what the index may list. */
export const INDEXABLE = new Set<Block['kind']>(['document', 'decision', 'source_code']);

/**
 * Whether the index may list the block: a workspace file read_document fetches. Commit evidence (`path@commit`, a
 * commit's hunks) is not one: read_document refuses it, so it is named in the manifest instead (commitNote).
 */
export function isIndexable(b: Block): boolean {
  return INDEXABLE.has(b.kind) && !b.meta.commit;
}

/** How the manifest names commit evidence that is not sent: `not sent: commit abc1234 touching src/a.ts (subject); <why>`. */
export function commitNote(b: Block, why: string): string {
  const c = b.meta.commit!;
  return `not sent: commit ${c.id} touching ${c.path} (${c.subject}); ${why.replace(/^not in this request: /, '')}`;
}

const NOT_IN_FORCE = ['proposed', 'draft'];
const RETIRED = ['superseded', 'deprecated', 'rejected', 'on hold'];

/** A decision's status as the index says it: `accepted`, `status unknown`, `proposed (not in force)`, `superseded by ADR-0019 (not in force)`. */
function indexStatus(d: Block): string {
  const status = d.meta.status;
  if (status && RETIRED.includes(status)) return `${status}${d.meta.supersededBy ? ` by ${d.meta.supersededBy}` : ''} (not in force)`;
  if (status && NOT_IN_FORCE.includes(status)) return `${status} (not in force)`;
  return statusLabel(status);
}

/**
 * The `<available-documents>` block listing `docs` (sorted by path); `overflow` are the ones fill left out for room.
 * The block's `meta.listed` is the list of paths its text names, in order: what the manifest may call "indexed".
 */
export function indexBlock(policy: Policy, docs: Block[], overflow?: Set<Block>, leftOut?: { count: number; budget: number }, retired: Block[] = []): Block | undefined {
  const listed = docs.filter(isIndexable).sort((a, b) => a.source.localeCompare(b.source));
  if (listed.length === 0 && !leftOut?.count && retired.length === 0) return undefined;
  const entries: IndexEntry[] = listed.map((d) => ({
    path: d.source,
    title: d.meta.title ?? d.source,
    summary: d.meta.summary,
    tags: d.meta.tags,
    estimatedTokens: d.tokens,
    ...(d.kind === 'decision' ? { status: indexStatus(d) } : {}),
    ...(d.meta.relevance ? { relevance: d.meta.relevance.score, notLoaded: overflow?.has(d) ? 'did not fit the budget' : [...NOT_IN_FORCE, ...RETIRED].includes(d.meta.status ?? '') ? 'not in force' : 'below the relevance threshold' } : {}),
  }));
  const more = leftOut?.count ? `${leftOut.count} more candidate document${leftOut.count === 1 ? '' : 's'} (ranked below those listed) left out of this index, over its budget of ${leftOut.budget} tokens; read_document fetches any of them by path` : undefined;
  const named = [...retired].sort((a, b) => a.source.localeCompare(b.source)).map((d) => ({ path: d.source, title: d.meta.title ?? d.source, status: retiredStatus(d) }));
  const text = [...(entries.length || more ? [renderIndex(entries, more)] : []), ...(named.length ? [renderRetired(named)] : [])].join('\n');
  const block = makeBlock(policy, 'index', 'builtin:index', 'harness', text, { listed: entries.map((e) => e.path), ...(leftOut?.count ? { leftOut: leftOut.count } : {}) });
  block.priority = -1;
  return block;
}

/** A retired decision's status as `<retired-decisions>` says it: `superseded by ADR-0019, not in force`, `deprecated, not in force`. */
export function retiredStatus(d: Block): string {
  const status = d.meta.status ?? 'superseded';
  return `${status}${d.meta.supersededBy ? ` by ${d.meta.supersededBy}` : status === 'superseded' ? ' (no successor named)' : ''}, not in force`;
}

/** A document reduced to its title, summary and where the whole text is (ladder step 3). */
export function summaryText(block: Block): string {
  return [block.meta.title ?? block.source, block.meta.summary ?? '', `(summary only: read_document("${block.source}") returns the full text)`].filter(Boolean).join('\n');
}
