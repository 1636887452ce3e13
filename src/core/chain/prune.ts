import { componentsOf, type PackageDir, type TaskComponent } from '../relevance/components';
import { describe, type Relevance, type RelevanceSettings } from '../relevance/rank';
import { UNKNOWN_STATUS } from '../sources/adr';
import type { Block, Decision, StageResult, Warning } from '../types';

export interface Pruned {
  /** Blocks still competing for the budget. */
  kept: Block[];
  /** Documents offered in the index, not loaded. */
  disclosed: Block[];
  /** Why each disclosed block is in the index and not loaded. */
  indexed?: Decision[];
  /**
   * Retired decisions the task asks about: never loaded, never index entries (read_document refuses them), named in
   * the request in a block of their own with their status and successor (index-block.ts, `<retired-decisions>`).
   */
  retired?: Block[];
}

/** What relevance pruning needs: the task's components, every candidate's relevance, and the thresholds. */
export interface RelevanceContext {
  components: TaskComponent[];
  relevance: Map<string, Relevance>;
  settings: RelevanceSettings;
  /** Package manifests below the root: their folders are components too. */
  packages?: PackageDir[];
  /** The policy (or the file's own front matter) set this block's priority: that wins over relevance. */
  prioritized: (block: Block) => boolean;
}

const RETIRED = new Set(['superseded', 'deprecated', 'rejected', 'on hold']);
const NOT_IN_FORCE = new Set(['proposed', 'draft']);
const PRUNABLE = new Set(['document', 'decision', 'source_code']);

/**
 * Drop whole blocks that no longer apply: retired decisions (superseded, deprecated, rejected, on hold), documents of
 * another component than the task's, and, when the task is ranked (`RelevanceContext`), what is not relevant to it:
 * at or above the load threshold a block competes for the budget; above the index threshold it is listed in the
 * index; below, it is rejected. Proposed and draft decisions are indexed, labelled not in force.
 * Without a relevance context (a component name or nothing), documents without a component are disclosed.
 * Supersession arrives resolved in both directions (sources/supersession.ts, at snapshot time).
 */
export function prune(blocks: Block[], task: string | undefined | RelevanceContext): StageResult<Pruned> {
  const ranked = typeof task === 'object' ? task : undefined;
  const components = ranked ? ranked.components.map((c) => c.name) : typeof task === 'string' ? [task.toLowerCase()] : [];
  const kept: Block[] = [];
  const disclosed: Block[] = [];
  const indexed: Decision[] = [];
  const rejected: Decision[] = [];
  const retired: Block[] = [];
  const warnings: Warning[] = [];

  for (const block of blocks) {
    if (!PRUNABLE.has(block.kind) || block.mandatory) {
      kept.push(block);
      continue;
    }
    const status = block.meta.status ?? UNKNOWN_STATUS;
    const rel = ranked?.relevance.get(block.source);
    if (block.kind === 'decision') {
      const successor = block.meta.supersededBy;
      const superseded = status === 'superseded' || (successor && !RETIRED.has(status));
      if (superseded || RETIRED.has(status)) {
        const label = superseded ? (successor ? `superseded by ${successor}` : 'superseded (no successor named)') : `${status} decision`;
        // The task asks about it: named in the request with its status and successor (issue 25), in a block of its own,
        // not in the index: read_document does not fetch a retired decision, and the index lists only what it fetches (issue 28).
        if (ranked && rel && askedAbout(rel, ranked.settings)) {
          retired.push({ ...block, meta: { ...block.meta, status: superseded ? 'superseded' : status } });
          rejected.push(withScore(block, `${label}: not in force, not loaded; named in <retired-decisions> with its status because the task asks about it (${describe(rel)}); not in the index (read_document does not fetch a retired decision)`, rel));
        } else rejected.push(decision(block, label));
        continue;
      }
    }
    const own = ranked ? componentsOf(block.source, block.meta.components, ranked.packages) : (block.meta.components ?? []).map((name) => ({ name: name.toLowerCase(), from: 'front matter' }));
    if (components.length > 0 && own.length > 0 && !own.some((c) => components.includes(c.name)) && !rel?.named) {
      const extra = { component: block.meta.components?.join(', ') ?? own.map((c) => c.name).join(', '), task_component: ranked ? components.join(', ') : task };
      const reason = ranked ? `unrelated component: ${own.map((c) => `${c.name} (${c.from === 'front matter' ? 'front matter' : `from ${c.from}`})`).join(', ')}; the task's: ${ranked.components.map((c) => `${c.name} (${c.from})`).join(', ')}` : 'unrelated component';
      rejected.push(decision(block, reason, extra));
      continue;
    }
    if (!ranked) {
      if (own.length === 0) disclosed.push(block);
      else kept.push(block);
      continue;
    }
    const settings = ranked.settings;
    const score = rel?.score ?? 0;
    const why = rel ? describe(rel) : 'not ranked';
    // Object.assign, not a spread with a new key: in this V8 (11.3) `{ ...meta, relevance }` gives each object its own
    // hidden class, 100 000 of them (35 MB, and slow property reads) in a 100 000-file workspace.
    const withRelevance = (b: Block): Block => (rel ? { ...b, meta: Object.assign({}, b.meta, { relevance: { score: rel.score, rank: rel.rank, of: rel.of, reason: why, ...(ranked.prioritized(b) ? { prioritized: true } : {}) } }) } : b);
    // Thresholds are shares of the best match; they cannot hide a file that meets the absolute floor, nor the
    // best-ranked decision in force: those are at least indexed.
    const floor = !!rel && (rel.floor === true || rel.topDecision === true);
    const floorWhy = rel?.topDecision ? 'the best-ranked decision' : 'its text has half of the task\'s words';
    if (block.kind === 'decision' && NOT_IN_FORCE.has(status)) {
      if (score >= settings.index_threshold / 100 || rel?.named || rel?.floor) {
        disclosed.push(withRelevance(block));
        indexed.push(withScore(block, `${status}: not in force; in the index (${why})`, rel));
      } else rejected.push(withScore(block, `${status} and not relevant: ${why}, below the index threshold ${settings.index_threshold}%`, rel));
      continue;
    }
    if (score >= settings.load_threshold / 100 || ranked.prioritized(block)) {
      kept.push(withRelevance(block));
    } else if (score >= settings.index_threshold / 100) {
      disclosed.push(withRelevance(block));
      indexed.push(withScore(block, `below the relevance threshold ${settings.load_threshold}%: in the index (${why})`, rel));
    } else if (floor) {
      disclosed.push(withRelevance(block));
      indexed.push(withScore(block, `below the index threshold ${settings.index_threshold}% but ${floorWhy}: in the index (${why})`, rel));
    } else {
      rejected.push(withScore(block, `not relevant to the task: ${why}, below the index threshold ${settings.index_threshold}%`, rel));
    }
  }
  return { value: { kept, disclosed, indexed: ranked ? indexed : undefined, ...(retired.length ? { retired } : {}) }, decisions: { rejected, warnings } };
}

/**
 * A retired decision the task asks about: named by the task, or the best match of all the documents and decisions
 * (rank 1) with at least `min_words` of the task's words in its own text. A retired decision that merely shares
 * words with a task about something else (the example's ADR-008, rank 2 behind the incident's own files) stays out.
 */
export function askedAbout(rel: Relevance, settings: RelevanceSettings): boolean {
  return rel.named || (rel.rank === 1 && rel.words.length >= settings.min_words);
}

function decision(block: Block, reason: string, extra: Record<string, unknown> = {}): Decision {
  return { source: block.source, kind: block.kind, reason, tokens: block.tokens, ...extra };
}

function withScore(block: Block, reason: string, rel: Relevance | undefined): Decision {
  return decision(block, reason, rel ? { relevance: rel.score } : {});
}
