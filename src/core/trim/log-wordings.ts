import { shortMessage } from './log-parse';
import type { Pool } from './log-pool';
import type { ErrorGroup, ErrorSite } from './log-scan';
import { MaskMemo } from './templates';

/** A template's other wordings in a log's pool: what a row of the template does not show, said verbatim. */

/**
 * The first occurrences of a template's other wordings: located occurrences whose plain words (what the masks leave
 * of the message, numbers, ids and paths aside) differ from the first occurrence's and from each other's. A template
 * that merged `deny(1) network-outbound …` and `deny(1) file-read-data …` shows both.
 */
export function variantSites(g: ErrorGroup, pool: Pool, max: number): ErrorSite[] {
  let byGroup = poolVariants.get(pool);
  if (!byGroup) poolVariants.set(pool, (byGroup = new Map()));
  const key = `${max}`;
  let known = byGroup.get(g)?.get(key);
  if (!known) {
    known = variantsOf(g, pool, max);
    const forGroup = byGroup.get(g) ?? new Map<string, ErrorSite[]>();
    forGroup.set(key, known);
    byGroup.set(g, forGroup);
  }
  return known;
}

/** variantSites, made once per pool, group and cap (every candidate render asks again). */
const poolVariants = new WeakMap<Pool, Map<ErrorGroup, Map<string, ErrorSite[]>>>();

function variantsOf(g: ErrorGroup, pool: Pool, max: number): ErrorSite[] {
  const seen = new Set<string>();
  let first: string[] | undefined;
  const found: { site: ErrorSite; differ: number }[] = [];
  let masks = groupMasks.get(g);
  if (!masks) groupMasks.set(g, (masks = new MaskMemo(MAX_SITE_MESSAGES)));
  for (const site of g.sites) {
    const line = pool.lines.get(site.index);
    if (line === undefined) continue;
    let w = siteWordings.get(site);
    if (w === undefined || w.line !== line) {
      const words = wording(line, masks);
      siteWordings.set(site, (w = { line, words, key: words.join(' ') }));
    }
    const { words, key } = w;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!first) first = words;
    else found.push({ site, differ: differing(first, words) });
  }
  // The wordings most unlike the first come first (`Failed none for …` before another user name), then in order.
  return found
    .sort((a, b) => b.differ - a.differ || a.site.index - b.site.index)
    .slice(0, max)
    .map((x) => x.site);
}

/**
 * Each located occurrence's wording, made once per scan: every candidate render (the budget's binary searches) asks
 * for the variants of the same sites again, and so does every pool gathered from the same scan (the sites outlive
 * them). Kept with the line it was read from and made again if a pool gives another.
 */
const siteWordings = new WeakMap<ErrorSite, { line: string; words: string[]; key: string }>();

/** A template's occurrences repeat their message: each distinct one is masked once (templates.ts's MaskMemo). */
const groupMasks = new WeakMap<ErrorGroup, MaskMemo>();
/** Located occurrences per template at most (log-scan.ts's MAX_SITES_PER_GROUP), so the memo never empties. */
const MAX_SITE_MESSAGES = 64;

/** Positions where two wordings differ (and the difference in length). */
function differing(a: string[], b: string[]): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

/**
 * A message's words in order (tokens of letters and punctuation: `deny(1)` masked is `deny(<*>)`, `user=guest`
 * stays), its other tokens (numbers, ids, paths) as `<*>`: two occurrences with the same wording say the same.
 */
function wording(line: string, masks: MaskMemo): string[] {
  return masks.tokens(shortMessage(line)).map((t) => (WORDY.test(t) && !NO_WORD.test(t) ? t.toLowerCase() : '<*>'));
}

const WORDY = /[A-Za-z]{3}/;
const NO_WORD = /\d/;
