import { makeBlock } from '../chain/collect';
import { wrap } from '../chain/render';
import type { Policy } from '../policy';
import type { TaskSignals } from '../task/analyze';
import type { CommitChange, Hunk } from '../task/git';
import { countUpTo, estimateTokens, type Tokenizer } from '../tokens';
import type { Block } from '../types';

/** Source files larger than this (tokens, counted exactly when a tokenizer is given) are sent as the lines that match the task, not whole. */
export const EXCERPT_ABOVE_TOKENS = 1200;
const CONTEXT_LINES = 3;

/** What in a line ties it to the task: its identifiers, codes and quoted messages, as written (case kept). */
export function needles(signals: TaskSignals): string[] {
  return [...new Set([...signals.identifiers.map((i) => i.replace(/\(\)$/, '')), ...signals.quoted, ...signals.codes].filter((n) => n.length >= 4))];
}

/**
 * A recent commit's change that matches the task, as a block: the hunks that contain one of the task's identifiers,
 * codes or quoted messages, with the commit id and subject and the new file's line numbers.
 */
export function changeBlocks(commits: CommitChange[], signals: TaskSignals, policy: Policy): { block: Block; where: string }[] {
  const keys = needles(signals);
  if (keys.length === 0) return [];
  const out: { block: Block; where: string }[] = [];
  for (const c of commits) {
    const hunks = c.hunks.filter((h) => h.lines.some((l) => keys.some((k) => l.includes(k))));
    if (hunks.length === 0) continue;
    const short = c.commit.slice(0, 7);
    const matched = keys.filter((k) => hunks.some((h) => h.lines.some((l) => l.includes(k))));
    const text = [`commit ${short}: ${c.subject}`, `--- ${c.path}`, ...hunks.flatMap(numberedHunk)].join('\n');
    const block = makeBlock(policy, 'source_code', `${c.path}@${short}`, 'project-source', text, { title: `${c.path} in ${short}`, summary: c.subject, excerpt: `diff hunks of commit ${short} that mention ${matched.join(', ')}`, commit: { id: short, path: c.path, subject: c.subject } });
    out.push({ block, where: `changed in commit ${short} (${c.subject}), hunks mentioning ${matched.join(', ')}` });
  }
  return out;
}

function numberedHunk(h: Hunk): string[] {
  const out = [h.header];
  let line = h.newStart;
  for (const l of h.lines) {
    if (l.startsWith('-') || l.startsWith('\\')) out.push(`      ${l}`);
    else out.push(`${String(line++).padStart(5)} ${l}`);
  }
  return out;
}

/**
 * A large source file reduced to the lines that mention the task's identifiers, codes or quoted messages, with
 * `CONTEXT_LINES` around each and every line numbered. Unchanged when small, or when nothing matches.
 */
export function excerptLarge(block: Block, signals: TaskSignals, above = EXCERPT_ABOVE_TOKENS, tokenizer?: Tokenizer): Block {
  if (block.meta.excerpt) return block;
  // Exact (the block as wrapped, the figure the manifest reports and the chain counts again from its cache), and
  // counted no further than the threshold: only "above it or not" is asked.
  if ((tokenizer ? countUpTo(tokenizer, wrap(block), above) : block.tokens) <= above) return block;
  const keys = needles(signals);
  const lines = block.text.split('\n');
  const hits = lines.flatMap((l, i) => (keys.some((k) => l.includes(k)) ? [i] : []));
  if (hits.length === 0) return block;
  const ranges: [number, number][] = [];
  for (const i of hits) {
    const from = Math.max(0, i - CONTEXT_LINES);
    const to = Math.min(lines.length - 1, i + CONTEXT_LINES);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  const matched = keys.filter((k) => hits.some((i) => lines[i].includes(k)));
  const shown = ranges.map(([a, b]) => `${a + 1}-${b + 1}`).join(', ');
  const text = [
    `(excerpt: lines ${shown} of ${lines.length}, the ones mentioning ${matched.join(', ')}; read_document("${block.source}") returns the whole file)`,
    ...ranges.flatMap(([a, b], n) => [...(n > 0 ? ['…'] : []), ...lines.slice(a, b + 1).map((l, k) => `${String(a + k + 1).padStart(5)}  ${l}`)]),
  ].join('\n');
  return { ...block, text, tokens: estimateTokens(text), exact: false, meta: { ...block.meta, excerpt: `lines ${shown} of ${lines.length}, mentioning ${matched.join(', ')}` } };
}
