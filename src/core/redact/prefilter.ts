import { HINT } from './rules';

/**
 * The secret pre-check over many lines at once: a batch is joined, lower-cased once and searched with one
 * case-sensitive global pattern (HINT in lower case), which costs about a third of testing HINT (case-insensitive)
 * line by line. Only the lines it flags can hold a secret; the others are passed through untouched. Lower-casing
 * keeps ASCII letters aligned with the original; when a batch's lower case changes its length (a few non-ASCII
 * letters do), its lines are tested one by one instead. Flags are a superset of HINT's (a non-ASCII letter whose
 * lower case is ASCII, like the Kelvin sign, may flag a line HINT would not): a flagged line is still redacted by
 * the full pass, so the output is the same.
 */
export const HINT_LOWER = new RegExp(HINT.source.toLowerCase(), 'g');

const HINT_LOWER_ONE = new RegExp(HINT.source.toLowerCase());

/**
 * HINT's test on one text, or more (a superset, as `hintedLines`): the text lower-cased once and searched
 * case-sensitively, about half the cost of the case-insensitive pattern on a log's evidence line.
 */
export function mayHoldSecret(text: string): boolean {
  const lower = text.toLowerCase();
  return lower.length === text.length ? HINT_LOWER_ONE.test(lower) : HINT.test(text);
}

/** 1 for each line of `batch` that may hold a secret, 0 for the others. */
export function hintedLines(batch: readonly string[]): Uint8Array {
  const flags = new Uint8Array(batch.length);
  if (batch.length === 0) return flags;
  const joined = batch.length === 1 ? batch[0] : batch.join('\n');
  const lower = joined.toLowerCase();
  if (lower.length !== joined.length) {
    for (let i = 0; i < batch.length; i++) flags[i] = HINT.test(batch[i]) ? 1 : 0;
    return flags;
  }
  let line = 0;
  let end = batch[0].length;
  HINT_LOWER.lastIndex = 0;
  for (let m = HINT_LOWER.exec(lower); m; m = HINT_LOWER.exec(lower)) {
    while (m.index >= end) end += 1 + batch[++line].length;
    flags[line] = 1;
    // One hit is enough for a line: go on from the next one.
    if (HINT_LOWER.lastIndex < end + 1) HINT_LOWER.lastIndex = end + 1;
  }
  return flags;
}
