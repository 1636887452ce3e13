import { progressCounter } from '../host';
import type { RelevanceContext } from '../chain/prune';
import { headingsOf } from '../sources/documents';
import { globMatcher } from '../sources/globs';
import type { Snapshot } from '../sources/snapshot';
import type { Tokenizer } from '../tokens';
import type { Block } from '../types';
import { componentsOf, taskComponents, type PackageDir } from './components';
import { changeBlocks, excerptLarge } from './evidence';
import { ByText, TEXT_MEMO_ENTRIES } from './by-text';
import { RelevanceIndex, type IndexedDoc } from './index';
import { rank, type Changed } from './rank';

const RANKED = new Set(['document', 'decision', 'source_code']);

/** Each document text's headings, read once per text (a workspace's documents, most unchanged between calls). */
const headingsByText = new ByText<string[]>(TEXT_MEMO_ENTRIES);

export interface Ranked {
  /** The collected blocks, with matching recent changes added and large source files cut to what matches. */
  blocks: Block[];
  /** `undefined` when the task gives nothing to rank on (no words, no paths): pruning falls back to components. */
  context?: RelevanceContext;
}

/**
 * Rank the collected blocks against the task. `index` is the workspace's full-text index, kept by the caller between
 * calls (the editor updates it file by file); without one, a fresh index is built for this call. With a tokenizer,
 * whether a source file is cut to its matching lines is decided on its exact count.
 */
export function rankBlocks(collected: Block[], snapshot: Snapshot, index: RelevanceIndex = new RelevanceIndex(), tokenizer?: Tokenizer): Ranked {
  const { task, policy } = snapshot;
  const signals = task.signals;
  if (!signals || (signals.words.length === 0 && signals.paths.length === 0 && signals.adrs.length === 0)) return { blocks: collected };
  const changed: Changed[] = [
    ...(snapshot.changes?.workingTree ?? []).map((path) => ({ path, where: 'changed in the working tree' })),
    ...(snapshot.changes?.commits ?? []).map((c) => ({ path: c.path, where: `changed in commit ${c.commit.slice(0, 7)} (${c.subject})` })),
    ...(task.editor?.activeFile ? [{ path: task.editor.activeFile, where: 'the active file in the editor' }] : []),
    ...(task.editor?.openFiles ?? []).filter((p) => p !== task.editor?.activeFile).map((path) => ({ path, where: 'open in the editor' })),
  ];
  const evidence = changeBlocks(snapshot.changes?.commits ?? [], signals, policy);
  const blocks = [...collected, ...evidence.map((e) => e.block)];
  for (const e of evidence) changed.push({ path: e.block.source, where: e.where });

  const docs: IndexedDoc[] = blocks
    .filter((b) => RANKED.has(b.kind) && !b.mandatory)
    .map((b) => ({ path: b.source, title: b.meta.title ?? b.source, headings: b.kind === 'source_code' ? [] : headingsByText.get(b.text, (t) => headingsOf(t).map((h) => h.text)), summary: b.meta.summary, tags: b.meta.tags, body: b.text }));
  index.retain(docs.map((d) => d.path));
  // Keyed by the file's version too: a kept index (persist.ts) reuses an entry only for the same path, size, mtime and text.
  const stamps = new Map(snapshot.files.map((f) => [f.path, f]));
  const countRanked = progressCounter('rank', docs.length);
  for (const d of docs) {
    countRanked?.();
    const f = stamps.get(d.path);
    index.upsert(d, f?.mtimeMs !== undefined ? { size: f.size, mtimeMs: f.mtimeMs } : undefined);
  }

  const packages = snapshot.packages ?? [];
  const components = task.components ?? taskComponents(knownComponents(blocks, snapshot, stamps, packages), signals.words, task.files, task.component, packages);
  const settings = policy.relevance;
  const relevance = rank(blocks, { signals, files: task.files, changed, components, settings, packages }, index);
  const globs = policy.priorities.map((p) => p.match);
  const byPolicy = globMatcher(globs, { dot: true });
  const own = new Set(snapshot.documents.filter((d) => d.priority !== undefined).map((d) => d.path));
  return {
    blocks: blocks.map((b) => (b.kind === 'source_code' ? excerptLarge(b, signals, undefined, tokenizer) : b)),
    context: { components, relevance, settings, packages, prioritized: (b) => own.has(b.source) || globs.includes(b.source) || byPolicy(b.source) },
  };
}

/**
 * Every component the workspace knows: its ranked blocks' and its files'. A block without declared components that is
 * a file of the snapshot has its file's (componentsOf is a function of the path then), so it is not worked out twice;
 * taskComponents reads the set sorted, so the order it is filled in does not matter.
 */
function knownComponents(blocks: Block[], snapshot: Snapshot, files: Map<string, unknown>, packages: PackageDir[]): Set<string> {
  const known = new Set<string>();
  for (const b of blocks) {
    if (!RANKED.has(b.kind) || ((b.meta.components === undefined || b.meta.components.length === 0) && files.has(b.source))) continue;
    for (const c of componentsOf(b.source, b.meta.components, packages)) known.add(c.name);
  }
  for (const f of snapshot.files) for (const c of componentsOf(f.path, undefined, packages)) known.add(c.name);
  return known;
}
