/**
 * "Compare with previous preview": which blocks one preview added, removed or changed against the one before, with
 * the token delta of each and of the whole request.
 */

export interface DiffBlock {
  /** Stable across runs for the same content slot: kind + source. */
  kind: string;
  source: string;
  tokens: number;
  text: string;
}

export interface BlockChange {
  change: 'added' | 'removed' | 'changed';
  kind: string;
  source: string;
  before?: number;
  after?: number;
  /** after − before (a removed block gives up its tokens: negative). */
  delta: number;
  /** For a changed block: what changed, in words. */
  what?: 'text' | 'tokens' | 'text and tokens';
}

export interface PreviewDiff {
  changes: BlockChange[];
  same: number;
  finalBefore?: number;
  finalAfter?: number;
}

const keyOf = (b: DiffBlock) => `${b.kind}\u0000${b.source}`;

function what(a: DiffBlock, b: DiffBlock): BlockChange['what'] | undefined {
  const text = a.text !== b.text;
  const tokens = a.tokens !== b.tokens;
  return text && tokens ? 'text and tokens' : text ? 'text' : tokens ? 'tokens' : undefined;
}

/**
 * The diff in the new preview's block order (added and changed where they now stand), then the removed blocks in
 * their old order. Two blocks with the same kind and source are paired in order of appearance.
 */
export function diffPreviews(before: { blocks: DiffBlock[]; final?: number }, after: { blocks: DiffBlock[]; final?: number }): PreviewDiff {
  const old = new Map<string, DiffBlock[]>();
  for (const b of before.blocks) old.set(keyOf(b), [...(old.get(keyOf(b)) ?? []), b]);
  const changes: BlockChange[] = [];
  let same = 0;
  for (const b of after.blocks) {
    const prev = old.get(keyOf(b))?.shift();
    if (!prev) {
      changes.push({ change: 'added', kind: b.kind, source: b.source, after: b.tokens, delta: b.tokens });
      continue;
    }
    const w = what(prev, b);
    if (w) changes.push({ change: 'changed', kind: b.kind, source: b.source, before: prev.tokens, after: b.tokens, delta: b.tokens - prev.tokens, what: w });
    else same++;
  }
  for (const b of before.blocks) {
    const left = old.get(keyOf(b));
    if (left?.includes(b)) changes.push({ change: 'removed', kind: b.kind, source: b.source, before: b.tokens, delta: -b.tokens });
  }
  return { changes, same, ...(before.final !== undefined ? { finalBefore: before.final } : {}), ...(after.final !== undefined ? { finalAfter: after.final } : {}) };
}
