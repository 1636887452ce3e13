import { trimCommand } from './command';
import { clipLine, countRetained, omitted } from './lines';
import { isErrorLine, timestampOf } from './log-parse';
import { gatherPool, scanErrors, type LogScan, type Pool } from './log-scan';
import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

export { correlationId, errorSignature, isErrorLine } from './log-parse';

/**
 * Log trimming (seed 000's extract_log_windows): keep each error with its timestamp and correlation id, the lines
 * around it, the lines that share its id, and its stack trace up to a cap; collapse repeats of the same error into
 * one line with a count and the first and last time seen. Long lines are clipped with a visible marker rather than
 * letting one 700-character exception line push the evidence out. Two streaming passes, then candidates are built
 * from a small pool, most detailed first, and the first that fits the budget wins.
 */

interface Detail {
  /** Which occurrences get their context (window, stack, correlated lines): all of them, or the first of each error. */
  context: 'all' | 'firsts';
  window: number;
  stack: number;
  /** Correlated lines kept per error, nearest first (0: none)... */
  corr: number;
  /** ...for the first occurrence of each error, or only for the most repeated error's first occurrence. */
  corrScope?: 'each' | 'top';
  /**
   * The other occurrences of a repeated error: their own lines in place (`lines`), or listed under the collapsed
   * line by line number, timestamp and correlation id (`list`), or only counted (`none`).
   */
  repeats: 'lines' | 'list' | 'none';
  /** With `list`: at most this many occurrences listed per error (the first ones and the last one). */
  listCap?: number;
  clip: number;
}

const COLLAPSED = 'Repeated errors (collapsed):';

export function trimLog(lines: Lines, options: TrimOptions): TrimOutput {
  const scan = scanErrors(lines);
  if (scan.errors === 0) {
    const out = trimCommand(lines, options, 'log');
    return { ...out, note: `no error found: ${out.note}` };
  }
  const pool = gatherPool(lines, scan, options.windowLines, options.maxStackLines);
  const w = options.windowLines;
  const s = options.maxStackLines;
  const c = options.maxLineChars;
  const tight = Math.max(80, Math.ceil(c / 2));
  const ladder: Detail[] = [
    { context: 'all', window: w, stack: s, corr: 12, repeats: 'lines', clip: c },
    { context: 'firsts', window: w, stack: s, corr: 12, repeats: 'lines', clip: c },
    { context: 'firsts', window: w, stack: Math.min(s, 6), corr: 8, repeats: 'lines', clip: c },
    { context: 'firsts', window: Math.min(w, 1), stack: Math.min(s, 3), corr: 4, repeats: 'lines', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 2), corr: 2, repeats: 'lines', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 2), corr: 2, repeats: 'list', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 1), corr: 2, repeats: 'list', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 1), corr: 2, corrScope: 'top', repeats: 'list', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 1), corr: 2, corrScope: 'top', repeats: 'list', listCap: 8, clip: c },
    { context: 'firsts', window: 0, stack: 0, corr: 2, corrScope: 'top', repeats: 'list', listCap: 8, clip: tight },
    { context: 'firsts', window: 0, stack: 0, corr: 2, corrScope: 'top', repeats: 'list', listCap: 3, clip: tight },
    { context: 'firsts', window: 0, stack: 0, corr: 0, repeats: 'list', listCap: 3, clip: tight },
    { context: 'firsts', window: 0, stack: 0, corr: 0, repeats: 'none', clip: tight },
  ];
  // firstThatFits builds candidates in order and stops at the first that fits: the last one built is the one kept.
  let used = ladder[0];
  const kept = firstThatFits(
    ladder.map((d) => () => {
      used = d;
      return render(scan, pool, d);
    }),
    options,
  );
  return {
    text: kept.join('\n'),
    originalLines: scan.total,
    retainedLines: countRetained(kept, (l) => l === COLLAPSED || /^ {2,}(?:×|…|line \d)/.test(l)),
    format: 'log',
    note: describe(scan, used),
  };
}

/** What the kept candidate holds, in words, for the manifest. */
function describe(scan: LogScan, d: Detail): string {
  const distinct = scan.groups.length + (scan.uncounted > 0 ? 1 : 0);
  const repeated = scan.groups.filter((g) => g.count > 1).length;
  const context = [d.window > 0 ? `${d.window} neighbouring lines` : '', d.corr > 0 ? `correlated lines${d.corrScope === 'top' ? ' (most repeated error)' : ''}` : '', d.stack > 0 ? `stack traces up to ${d.stack} line${d.stack === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(', ');
  const which = d.context === 'all' ? 'every error' : 'the first occurrence of each error';
  const repeats = { lines: 'other occurrences kept as lines', list: `other occurrences listed by line, time and id${d.listCap ? ` (up to ${d.listCap} each)` : ''}`, none: 'other occurrences counted' }[d.repeats];
  return (
    `${scan.errors} error lines (${distinct} distinct): ${which} kept with its timestamp and correlation id${context ? `, ${context}` : ''}` +
    (repeated > 0 ? `; ${repeated} repeated errors collapsed with counts and first/last times, ${repeats}` : '')
  );
}

function render(scan: LogScan, pool: Pool, d: Detail): string[] {
  const withContext = new Set<number>();
  for (const g of scan.groups) {
    if (d.context === 'all') for (const site of g.sites) withContext.add(site.id);
    else if (g.sites.length > 0) withContext.add(g.sites[0].id);
  }
  const chosen: number[] = [];
  for (const [index, reasons] of pool.reasons) {
    const keep = reasons.some((r) => {
      if (!withContext.has(r.site)) return r.kind === 'self' && d.repeats === 'lines';
      switch (r.kind) {
        case 'self':
          return true;
        case 'window':
          return r.rank <= d.window;
        case 'stack':
          return r.rank <= d.stack;
        case 'cause':
          return d.stack > 0;
        case 'corr':
          return false;
      }
    });
    if (keep) chosen.push(index);
  }
  // Correlated lines: the nearest `d.corr` of each error with context (or of the most repeated error only).
  const top = [...scan.groups].sort((a, b) => b.count - a.count || a.firstIndex - b.firstIndex)[0]?.sites[0]?.id;
  const corrFor = (site: number) => withContext.has(site) && (d.corrScope !== 'top' || site === top);
  if (d.corr > 0) {
    const perSite = new Map<number, { index: number; rank: number }[]>();
    for (const [index, reasons] of pool.reasons) {
      for (const r of reasons) {
        if (r.kind !== 'corr' || !corrFor(r.site)) continue;
        const list = perSite.get(r.site) ?? [];
        list.push({ index, rank: r.rank });
        perSite.set(r.site, list);
      }
    }
    for (const list of perSite.values()) {
      list.sort((a, b) => a.rank - b.rank || a.index - b.index);
      for (const { index } of list.slice(0, d.corr)) chosen.push(index);
    }
  }
  const indices = [...new Set(chosen)].sort((a, b) => a - b);
  const out: string[] = [];
  let previous = -1;
  for (const index of indices) {
    if (index > previous + 1) out.push(omitted(index - previous - 1));
    const line = pool.lines.get(index) ?? '';
    out.push(clipLine(line, isErrorLine(line) ? d.clip * 2 : d.clip));
    previous = index;
  }
  if (previous < scan.total - 1) out.push(omitted(scan.total - 1 - previous));
  const repeated = scan.groups.filter((g) => g.count > 1);
  if (repeated.length > 0 || scan.uncounted > 0) {
    out.push('', COLLAPSED);
    for (const g of repeated) {
      const when = g.firstTs ? `first ${g.firstTs}, last ${g.lastTs}` : `first line ${g.firstIndex + 1}, last line ${g.lastIndex + 1}`;
      out.push(`  ×${g.count} (${when}): ${clipLine(g.sample, d.clip)}`);
      if (d.repeats !== 'list') continue;
      const others = g.sites.slice(1);
      const cap = d.listCap ?? others.length;
      const listed = others.length <= cap ? others : [...others.slice(0, Math.max(0, cap - 1)), ...others.slice(-1)];
      listed.forEach((site, k) => {
        if (k === listed.length - 1 && listed.length < others.length) out.push(`    ${omitted(others.length - listed.length, 'more occurrences')}`);
        const line = pool.lines.get(site.index) ?? '';
        out.push(`    ${[`line ${site.index + 1}`, timestampOf(line), site.corr ? `id ${site.corr}` : undefined].filter(Boolean).join('  ')}`);
      });
      if (g.count > g.sites.length) out.push(`    ${omitted(g.count - g.sites.length, 'more occurrences, not located')}`);
    }
    if (scan.uncounted > 0) out.push(`  ${omitted(scan.uncounted, 'more error lines of other kinds, not itemised')}`);
  }
  return out;
}
