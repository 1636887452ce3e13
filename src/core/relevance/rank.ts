import * as posix from 'node:path/posix';
import type { TaskSignals } from '../task/analyze';
import type { Policy } from '../policy';
import type { Block } from '../types';
import { componentsOf, type PackageDir, type TaskComponent } from './components';
import type { RelevanceIndex } from './index';
import { processTerm } from './terms';
import { ByText, TEXT_MEMO_ENTRIES } from './by-text';

/**
 * Relevance settings (policy `relevance:`). Scores are a share of the best text match (1 = the best), plus the
 * explicit signals; thresholds are in percent: `load_threshold` and above is loaded when it fits, `index_threshold`
 * and above is listed in the index, below is not offered. Text matches on fewer distinct task words than `min_words`
 * count half.
 */
export type RelevanceSettings = Policy['relevance'];

export interface Relevance {
  score: number;
  /** 1-based rank among the ranked candidates, and how many there were. */
  rank: number;
  of: number;
  /** The task's words the text matched, as the task wrote them. */
  words: string[];
  /** Why, most specific first: `named in the task`, `changed in the working tree`, `component …`, `linked from …`. */
  signals: string[];
  /** Named by the task (path or ADR id): loaded whatever its text score. */
  named: boolean;
  /**
   * The absolute floor, independent of the best match's score: the file's own text mentions at least half of the
   * task's distinct terms, and at least `min_words` of them. Such a file is at least indexed.
   */
  floor?: boolean;
  /** The best-ranked decision in force with a text match: at least indexed, so no relative threshold can hide it. */
  topDecision?: boolean;
}

export interface Changed {
  path: string;
  /** The signal as the reason says it: `changed in the working tree`, `changed in commit 1a2b3c4 (subject)`, `open in the editor`. */
  where: string;
}

export interface RankContext {
  signals: TaskSignals;
  /** Workspace files the task names (front matter `files:` and paths in its text, resolved). */
  files: string[];
  changed: Changed[];
  components: TaskComponent[];
  settings: RelevanceSettings;
  /** Package manifests below the root: their folders are components too. */
  packages?: PackageDir[];
}

const RANKED = new Set(['document', 'decision', 'source_code']);
const NOT_IN_FORCE = new Set(['proposed', 'draft']);

/** Rank the candidate blocks against the task. Pure: the index is read, never changed. */
export function rank(blocks: Block[], ctx: RankContext, index: RelevanceIndex): Map<string, Relevance> {
  const candidates = blocks.filter((b) => RANKED.has(b.kind) && !b.mandatory);
  const identifierWords = new Set(ctx.signals.identifiers.flatMap((i) => i.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase())));
  const text = index.match(ctx.signals.words, (w) => (identifierWords.has(w) ? 2 : 1));
  // Documents and code are scored against their own kind's best match: a long source file does not drown the ADRs.
  const group = (b: Block) => (b.kind === 'source_code' ? 'code' : 'docs');
  const bestOf = new Map<string, number>();
  for (const b of candidates) bestOf.set(group(b), Math.max(bestOf.get(group(b)) ?? 0, text.get(b.source)?.score ?? 0));
  const componentNames = new Set(ctx.components.map((c) => c.name));
  const anchors = [...ctx.files, ...ctx.changed.map((c) => c.path)];

  const scored = candidates.map((b) => {
    const m = text.get(b.source);
    const words = m?.words ?? [];
    const best = bestOf.get(group(b)) ?? 0;
    let score = best > 0 && m ? (m.score / best) * (words.length >= ctx.settings.min_words ? 1 : 0.5) : 0;
    const signals: string[] = [];
    const named = isNamed(b, ctx);
    if (named) {
      signals.push('named in the task');
      score = Math.max(score, 1) + 1;
    }
    // A source file the task points at (task/pointers.ts): at least as relevant as the best code match.
    if (b.meta.pointer && !named) {
      signals.push(b.meta.pointer);
      score = Math.max(score, 1);
    }
    const changed = ctx.changed.find((c) => c.path === b.source);
    if (changed && (words.length > 0 || named)) {
      signals.push(changed.where);
      score += 0.2;
    }
    // A source file's component comes from its folder only (collect copies the task's onto a named file).
    // (Only a scored candidate can earn it: most of a large workspace's files score 0 and skip the folder walk.)
    const own = score > 0 ? componentsOf(b.source, b.kind === 'source_code' ? undefined : b.meta.components, ctx.packages).filter((c) => componentNames.has(c.name)) : [];
    if (own.length > 0 && score > 0) {
      const c = own[0];
      const task = ctx.components.find((t) => t.name === c.name)!;
      signals.push(`component ${c.name} (${c.from === 'front matter' ? 'front matter' : `from ${c.from}`}) ${task.from === 'named in the task' ? 'named in the task' : `matches the task's (${task.from})`}`);
      score += 0.15;
    }
    const near = score > 0 && !named ? closeness(b.source, anchors) : undefined;
    if (near && score > 0 && !named) {
      signals.push(`next to ${near.file}`);
      score += 0.1 * near.share;
    }
    return { block: b, score, words, signals, named };
  });

  // A decision or document that a relevant one links to is evidence too (once, not transitively).
  const retired = (b: Block) => !!b.meta.supersededBy || ['superseded', 'deprecated', 'rejected', 'on hold'].includes(b.meta.status ?? '');
  const relevant = scored.filter((s) => s.score >= ctx.settings.load_threshold / 100 && !retired(s.block));
  const linkedFrom = new Map<string, string>();
  for (const s of relevant) for (const target of linksOf(s.block)) if (!linkedFrom.has(target)) linkedFrom.set(target, s.block.meta.id ?? s.block.source);
  for (const s of scored) {
    const from = linkedFrom.get(s.block.source);
    if (from && from !== (s.block.meta.id ?? s.block.source) && s.score > 0) {
      s.signals.push(`linked from ${from}`);
      s.score += 0.15;
    }
  }

  // Ranks are among the same kind of candidate: documents and decisions together, code apart.
  const terms = new Set(ctx.signals.words.map(processTerm).filter((t) => t !== null)).size;
  const floorWords = Math.max(2, ctx.settings.min_words);
  const out = new Map<string, Relevance>();
  for (const g of ['docs', 'code']) {
    const ordered = scored.filter((s) => group(s.block) === g).sort((a, b) => b.score - a.score || a.block.source.localeCompare(b.block.source));
    const top = ordered.find((s) => s.block.kind === 'decision' && s.words.length > 0 && !retired(s.block) && !NOT_IN_FORCE.has(s.block.meta.status ?? ''));
    ordered.forEach((s, i) => {
      const floor = terms > 0 && s.words.length >= floorWords && s.words.length * 2 >= terms;
      out.set(s.block.source, { score: round(s.score), rank: i + 1, of: ordered.length, words: s.words, signals: s.signals, named: s.named, ...(floor ? { floor } : {}), ...(s === top ? { topDecision: true } : {}) });
    });
  }
  return out;
}

/** `relevant: mentions checkout, lock, redis (rank 1 of 38)`, with the explicit signals first. */
export function describe(r: Relevance, maxWords = 5): string {
  const parts = [...r.signals];
  if (r.words.length > 0) parts.push(mentions(r.words, maxWords));
  return `${parts.length > 0 ? parts.join('; ') : 'no match'} (rank ${r.rank} of ${r.of}, score ${r.score})`;
}

/**
 * `mentions a, b, c` for these words, one copy per distinct text: the documents of a large workspace match the same
 * few task words, and a copy in each of their reasons was 6 MB per 100 000 files.
 */
const mentionTexts = new ByText<string>(4096);
function mentions(words: string[], maxWords: number): string {
  return mentionTexts.get(`mentions ${words.slice(0, maxWords).join(', ')}${words.length > maxWords ? ` and ${words.length - maxWords} more` : ''}`, (text) => text);
}

function isNamed(b: Block, ctx: RankContext): boolean {
  if (ctx.files.includes(b.source)) return true;
  const base = posix.basename(b.source).toLowerCase();
  const stemName = base.replace(/\.[^.]+$/, '');
  for (const p of ctx.signals.paths) {
    const q = p.toLowerCase();
    if (b.source.toLowerCase() === q || b.source.toLowerCase().endsWith('/' + q)) return true;
  }
  if (b.kind !== 'decision') return false;
  const number = /^ADR-0*(\d+)$/i.exec(b.meta.id ?? '')?.[1];
  return ctx.signals.adrs.some((a) => (a.number !== undefined && number !== undefined && a.number === Number(number)) || (a.slug !== undefined && stemName === a.slug.toLowerCase()));
}

/** The named or changed file closest in the tree: how much of its folder path the block shares (two folders at least). */
function closeness(source: string, anchors: string[]): { file: string; share: number } | undefined {
  const dir = posix.dirname(source).split('/');
  let best: { file: string; share: number } | undefined;
  for (const a of anchors) {
    if (a === source) continue;
    const other = posix.dirname(a).split('/');
    let n = 0;
    while (n < dir.length && n < other.length && dir[n] === other[n]) n++;
    if (n < 2) continue;
    const share = n / Math.max(dir.length, other.length);
    if (!best || share > best.share) best = { file: a, share };
  }
  return best;
}

/** The Markdown links of a text (decoded, not yet resolved against a folder), read once per text. */
const linksByText = new ByText<string[]>(TEXT_MEMO_ENTRIES);
function linkTargets(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>#]+\.(?:md|markdown|mdx))(?:#[^)\s]*)?>?(?:\s+"[^"]*")?\s*\)/gi)) {
    if (/^[a-z]+:/i.test(m[1])) continue;
    let file = m[1];
    try {
      file = decodeURIComponent(file);
    } catch {
      // a malformed escape: the link as written
    }
    out.push(file);
  }
  return out;
}

/** Workspace paths of the Markdown links in a block's text, resolved against its folder. */
export function linksOf(b: Block): string[] {
  const out: string[] = [];
  const folder = posix.dirname(b.source);
  for (const file of linksByText.get(b.text, linkTargets)) {
    const target = posix.normalize(posix.join(folder, file));
    if (!target.startsWith('..')) out.push(target);
  }
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
