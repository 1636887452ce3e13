import type { Policy } from '../policy';
import type { Block } from '../types';
import { statusLabel } from '../sources/adr';
import { makeBlock } from './collect';
import { renderIndex, type IndexEntry } from './render';

/** What `read_document` can fetch, and so what the index may list. */
export const INDEXABLE = new Set<Block['kind']>(['document', 'decision', 'source_code']);

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
export function indexBlock(policy: Policy, docs: Block[], overflow?: Set<Block>): Block | undefined {
  const listed = docs.filter((d) => INDEXABLE.has(d.kind)).sort((a, b) => a.source.localeCompare(b.source));
  if (listed.length === 0) return undefined;
  const entries: IndexEntry[] = listed.map((d) => ({
    path: d.source,
    title: d.meta.title ?? d.source,
    summary: d.meta.summary,
    tags: d.meta.tags,
    estimatedTokens: d.tokens,
    ...(d.kind === 'decision' ? { status: indexStatus(d) } : {}),
    ...(d.meta.relevance ? { relevance: d.meta.relevance.score, notLoaded: overflow?.has(d) ? 'did not fit the budget' : [...NOT_IN_FORCE, ...RETIRED].includes(d.meta.status ?? '') ? 'not in force' : 'below the relevance threshold' } : {}),
  }));
  const block = makeBlock(policy, 'index', 'builtin:index', 'harness', renderIndex(entries), { listed: entries.map((e) => e.path) });
  block.priority = -1;
  return block;
}

/** A document reduced to its title, summary and where the whole text is (ladder step 3). */
export function summaryText(block: Block): string {
  return [block.meta.title ?? block.source, block.meta.summary ?? '', `(summary only: read_document("${block.source}") returns the full text)`].filter(Boolean).join('\n');
}
