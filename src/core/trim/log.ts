import { trimCommand } from './command';
import { clipLogLine, countRetained, MARK, omitted } from './lines';
import { timestampOf } from './log-parse';
import { pooled, readsByIndex, type Pool, type Reason } from './log-pool';
import { scanErrors, type ErrorGroup, type LogScan } from './log-scan';
import { variantSites } from './log-wordings';
import { grepFor, inspectHint, templateRow, TEMPLATES_HEADING, isTemplateRow } from './log-rows';
import { fitsBudget, type Lines, type TemplateCounts, type TrimOptions, type TrimOutput } from './types';

export { correlationId, errorSignature, isErrorLine } from './log-parse';

/**
 * Log trimming, by templates rather than windows of lines. Every error and warning template
 * comes first, one row each with its count and first/last time; then the verbatim first occurrence of the most
 * important errors with their timestamp, correlation id, neighbouring lines, correlated lines and stack trace;
 * then as much context as the budget allows. When not every template fits, the result says how many were left out
 * and how to get them. Two streaming passes, then candidates are built from a small pool, most detailed first,
 * and the first that fits the budget wins. The note is computed from the text kept, never from the plan.
 */

interface Detail {
  /** Which occurrences get their context (window, stack, correlated lines): all of them, or the first of each error. */
  context: 'all' | 'firsts';
  /** With `firsts`: only the first occurrences of the `firsts` most important error templates are kept verbatim. */
  firsts?: number;
  window: number;
  stack: number;
  /** Correlated lines kept per error, nearest first (0: none)... */
  corr: number;
  /** ...for the first occurrence of each error, or only for the most important error's first occurrence. */
  corrScope?: 'each' | 'top';
  /** The other occurrences of a repeated error: their own lines in place, listed under its row, or only counted. */
  repeats: 'lines' | 'list' | 'none';
  listCap?: number;
  clip: number;
  /** Template rows shown (the most important first); undefined: all. */
  rows?: number;
  /** Other wordings of an error template (variants) whose first line is kept verbatim too, at most this many per template. */
  variants?: number;
  /** Whose variants: the templates kept verbatim (default), or every error template's (a wording the rows do not show comes before a first line they do). */
  variantsOf?: 'verbatim' | 'all';
  /** Rows at their tightest: times to the second, the message's start, the short left-out line (when rows must go). */
  tightRows?: boolean;
  /** Tightest form: no heading, the short left-out line (or none: the notice still gives the path). */
  compact?: boolean;
  noLeftOut?: boolean;
}

/** Other wordings of one error template kept verbatim, at most. */
const MAX_VARIANTS = 3;

interface Rendered {
  lines: string[];
  firsts: number;
  /** Templates with a row. */
  shown: ErrorGroup[];
  /** The body passed the length no candidate that fits can have, and was not finished: the candidate does not fit. */
  tooLong?: boolean;
}

export function trimLog(lines: Lines, options: TrimOptions): TrimOutput {
  const scan = scanErrors(lines);
  if (scan.errors === 0 && scan.warnings === 0) {
    const out = trimCommand(lines, options, 'log');
    return { ...out, note: `no error or warning found: ${out.note}` };
  }
  const ranked = rank(scan);
  const w = options.windowLines;
  const s = options.maxStackLines;
  const c = options.maxLineChars;
  // What `fits` rejects uncounted: a body longer than this stops being rendered (see bodyLines).
  const cap = options.maxTokens * 12;
  const { pool, everyContext } = poolFor(lines, scan, w, s, c, cap);
  const tight = Math.max(80, Math.ceil(c / 2));
  const ladder: Detail[] = [
    { context: 'all', window: w, stack: s, corr: 12, repeats: 'lines', clip: c },
    { context: 'firsts', window: w, stack: s, corr: 12, repeats: 'lines', clip: c },
    { context: 'firsts', window: w, stack: Math.min(s, 6), corr: 8, repeats: 'lines', clip: c },
    { context: 'firsts', window: Math.min(w, 1), stack: Math.min(s, 3), corr: 4, repeats: 'list', listCap: 8, clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 2), corr: 4, repeats: 'list', listCap: 8, clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 2), corr: 4, repeats: 'none', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 2), corr: 2, corrScope: 'top', repeats: 'none', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 1), corr: 2, corrScope: 'top', repeats: 'none', clip: c },
    { context: 'firsts', window: 0, stack: Math.min(s, 1), corr: 2, corrScope: 'top', repeats: 'none', clip: tight },
    { context: 'firsts', window: 0, stack: 0, corr: 0, repeats: 'none', clip: tight },
  ];
  // The variants of a template first (its other wordings, kept verbatim once each), then without them.
  const detailed = ladder.map((d): Detail => ({ ...d, variants: MAX_VARIANTS }));
  const render = (d: Detail, bounded = true) => renderCandidate(scan, ranked, pool, d, options.reference, bounded ? cap : Infinity);
  // Never tokenize what cannot be sent: a candidate over 12 characters per token of budget is too big uncounted.
  const counted = new Map<string, boolean>();
  const fits = (r: Rendered) => {
    // The length first, without joining: most candidates of a large log are far too long.
    if (r.tooLong) return false;
    let length = r.lines.length - 1;
    for (const line of r.lines) length += line.length;
    if (length > cap) return false;
    // A binary search renders its answer again, and two steps can give the same text: each text is counted once.
    const text = r.lines.join('\n');
    let ok = counted.get(text);
    if (ok === undefined) counted.set(text, (ok = fitsBudget(text, options)));
    return ok;
  };
  let chosen: Rendered | undefined;
  for (const d of detailed) {
    // Every error's context, when the pool holds only the first occurrences' (its own lines alone are too long).
    if (d.context === 'all' && !everyContext) continue;
    const r = render(d);
    if (fits(r)) {
      chosen = r;
      break;
    }
  }
  if (!chosen) {
    // Every row, and the first occurrences verbatim of as many of the most important errors as fit (binary search).
    // The other wordings of every error template first (each says something its row does not), then as many first
    // lines as fit; when those wordings do not all fit, only the variants of the first lines kept.
    const verbatim = ranked.filter((g) => g.severity === 'error' && g.sites.length > 0).length;
    for (const variantsOf of ['all', 'none', 'verbatim'] as const) {
      if (variantsOf === 'none') {
        // Every first line without the variants.
        const r = render(ladder[ladder.length - 1]);
        if (fits(r)) {
          chosen = r;
          break;
        }
        continue;
      }
      const firsts = (n: number): Detail => ({ context: 'firsts', firsts: n, window: 0, stack: 0, corr: 0, repeats: 'none', clip: tight, variants: MAX_VARIANTS, variantsOf });
      let lo = 0;
      let hi = verbatim - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(render(firsts(mid)))) lo = mid;
        else hi = mid - 1;
      }
      const r = render(firsts(lo));
      if (fits(r)) {
        chosen = r;
        break;
      }
    }
  }
  if (!chosen) {
    // Not every row fits: the most important rows that do (binary search on their number), then the left-out line.
    const base: Detail = { context: 'firsts', firsts: 0, window: 0, stack: 0, corr: 0, repeats: 'none', clip: rowClip(c), tightRows: true };
    let lo = 0;
    let hi = ranked.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(render({ ...base, rows: mid }))) lo = mid;
      else hi = mid - 1;
    }
    if (lo > 0) chosen = render({ ...base, rows: lo }, false);
    else {
      // The compact form: the most important row, shorter and shorter, then only the line that says where to look.
      const tries = [100, 70, 45, 30].map((clip): Detail => ({ ...base, rows: 1, clip, compact: true }));
      tries.push(...[60, 30].map((clip): Detail => ({ ...base, rows: 1, clip, compact: true, noLeftOut: true })));
      chosen = tries.map((d) => render(d)).find(fits) ?? render({ ...base, rows: 0, compact: true }, false);
    }
  }
  return {
    text: chosen.lines.join('\n'),
    originalLines: scan.total,
    retainedLines: retained(chosen.lines),
    format: 'log',
    note: describe(scan, chosen, options.reference),
    templates: counts(scan, chosen),
  };
}

/**
 * The pool the candidates read. Only the first candidate gives every error its context (window, stack, causes,
 * correlated lines); the others give it to each template's first occurrence. That candidate keeps every error's own
 * line (clipped to twice `clip`) and a line end after each: when those alone are longer than `cap`, it cannot fit,
 * so the other occurrences' context is never read (on a log with thousands of errors, most of pass 2's lines).
 */
function poolFor(lines: Lines, scan: LogScan, window: number, stack: number, clip: number, cap: number): { pool: Pool; everyContext: boolean } {
  const every = () => ({ pool: pooled(lines, scan, window, stack, 'every'), everyContext: true });
  // Streamed, pass 2 reads the whole log: gathered once, with every error's context, unless the count alone decides.
  if (scan.sites.length <= cap && !readsByIndex(scan)) return every();
  const firsts = pooled(lines, scan, window, stack, 'firsts');
  let length = 0;
  for (const site of scan.sites) {
    length += clipLogLine(firsts.lines.get(site.index) ?? '', clip * 2).length + 1;
    if (length > cap) return { pool: firsts, everyContext: false };
  }
  return every();
}

/**
 * Every template's row at the tightest detail, without the lines kept verbatim: what a log needs so that no
 * template is left out (chain/trim.ts gives each log that much of the zone first, then the rest by evidence).
 * Undefined when the log has no error or warning.
 */
export function templateRowsText(lines: Lines, maxLineChars: number): string | undefined {
  const scan = scanErrors(lines);
  if (scan.groups.length === 0) return undefined;
  return [TEMPLATES_HEADING, ...rank(scan).map((g) => templateRow(g, rowClip(maxLineChars), false, true))].join('\n');
}

/** How much of a message a row at its tightest keeps (a third of a line, 60 characters at least). */
function rowClip(maxLineChars: number): number {
  return Math.max(60, Math.ceil(maxLineChars / 2));
}

/** Lines of the original kept verbatim: not the rows, headings or markers the trimmer wrote. */
function retained(lines: string[]): number {
  return countRetained(lines, (l) => l === TEMPLATES_HEADING || isTemplateRow(l) || /^ {2,4}(?:line \d|… )/.test(l));
}

/**
 * Importance: errors before warnings; errors in order of first appearance (the first error is usually the cause,
 * the later ones its consequences); warnings rarer first, then earlier.
 */
function rank(scan: LogScan): ErrorGroup[] {
  const sev = (g: ErrorGroup) => (g.severity === 'error' ? 0 : 1);
  return [...scan.groups].sort((a, b) => sev(a) - sev(b) || (a.severity === 'warn' ? a.count - b.count : 0) || a.firstIndex - b.firstIndex);
}

function counts(scan: LogScan, r: Rendered): TemplateCounts {
  const rows = r.lines.filter(isTemplateRow);
  const errors = scan.groups.filter((g) => g.severity === 'error').length;
  return { errors, warnings: scan.groups.length - errors, kept_errors: rows.filter((l) => l.startsWith('  E ')).length, kept_warnings: rows.filter((l) => l.startsWith('  W ')).length };
}

/** What the kept text holds, in figures read back from it. */
function describe(scan: LogScan, r: Rendered, reference: string | undefined): string {
  const rows = r.lines.filter(isTemplateRow);
  const e = rows.filter((l) => l.startsWith('  E ')).length;
  const w = rows.filter((l) => l.startsWith('  W ')).length;
  const E = scan.groups.filter((g) => g.severity === 'error').length;
  const W = scan.groups.length - E;
  const parts = [E > 0 || W === 0 ? `${e} of ${E} error templates` : '', W > 0 ? `${w} of ${W} warning templates` : ''].filter(Boolean);
  const firsts = r.firsts > 0 ? `; first occurrence of ${r.firsts} error template${r.firsts === 1 ? '' : 's'} verbatim` : '';
  let note = `kept ${parts.join(' and ')} (${retained(r.lines)} lines${firsts}) from ${scan.errors} error and ${scan.warnings} warning lines`;
  const left = E - e + W - w;
  const unitemised = scan.uncounted + scan.uncountedWarnings;
  if (left > 0) note += `; ${left} template${left === 1 ? '' : 's'} left out: ${inspectHint(reference, scan.groups.filter((g) => !r.shown.includes(g)))}`;
  if (unitemised > 0) note += `; ${unitemised} more error/warning lines of other templates counted, not itemised`;
  return note;
}

function renderCandidate(scan: LogScan, ranked: ErrorGroup[], pool: Pool, d: Detail, reference: string | undefined, cap: number): Rendered {
  const shown = d.rows === undefined ? ranked : ranked.slice(0, d.rows);
  const out: string[] = d.compact ? [] : [TEMPLATES_HEADING];
  for (const g of shown) {
    out.push(templateRow(g, d.clip, d.compact, d.tightRows));
    if (d.repeats === 'list' && g.severity === 'error') out.push(...listed(g, pool, d));
  }
  const leftOut = ranked.slice(shown.length);
  if (leftOut.length > 0 && !d.noLeftOut) {
    const n = `${leftOut.length} more template${leftOut.length === 1 ? '' : 's'} left out`;
    out.push(d.compact || d.tightRows ? `${MARK}${n}: ctxctl inspect ${reference ?? 'the full output'} --grep '${grepFor(leftOut, 1)}'` : `${MARK}${n} to fit the budget: ${inspectHint(reference, leftOut)}`);
  }
  if (scan.uncounted + scan.uncountedWarnings > 0) out.push(`  ${omitted(scan.uncounted + scan.uncountedWarnings, 'more error/warning lines of other templates, not itemised')}`);
  const body = bodyLines(scan, ranked, pool, d, cap);
  if (body.lines.length > 0) out.push('', ...body.lines);
  return { lines: out, firsts: body.firsts, shown, ...(body.tooLong ? { tooLong: true } : {}) };
}

function listed(g: ErrorGroup, pool: Pool, d: Detail): string[] {
  const out: string[] = [];
  const others = g.sites.slice(1);
  const cap = d.listCap ?? others.length;
  const chosen = others.length <= cap ? others : [...others.slice(0, Math.max(0, cap - 1)), ...others.slice(-1)];
  chosen.forEach((site, k) => {
    if (k === chosen.length - 1 && chosen.length < others.length) out.push(`    ${omitted(others.length - chosen.length, 'more occurrences')}`);
    const line = pool.lines.get(site.index) ?? '';
    out.push(`    ${[`line ${site.index + 1}`, timestampOf(line), site.corr ? `id ${site.corr}` : undefined].filter(Boolean).join('  ')}`);
  });
  if (g.count > g.sites.length && g.sites.length > 0) out.push(`    ${omitted(g.count - g.sites.length, 'more occurrences, not located')}`);
  return out;
}

/** The verbatim lines: first occurrences (or all) of the most important errors, with their context. */
function bodyLines(scan: LogScan, ranked: ErrorGroup[], pool: Pool, d: Detail, cap: number): { lines: string[]; firsts: number; tooLong?: boolean } {
  const errorsRanked = ranked.filter((g) => g.severity === 'error' && g.sites.length > 0);
  const verbatim = d.firsts === undefined ? errorsRanked : errorsRanked.slice(0, d.firsts);
  const varied = d.variants ? (d.variantsOf === 'all' ? errorsRanked : verbatim) : [];
  if (verbatim.length === 0 && varied.length === 0) return { lines: [], firsts: 0 };
  const withContext = new Set<number>();
  const variants = new Set<number>();
  for (const g of verbatim) {
    if (d.context === 'all') for (const site of g.sites) withContext.add(site.id);
    else withContext.add(g.sites[0].id);
  }
  for (const g of varied) for (const site of variantSites(g, pool, d.variants ?? 0)) variants.add(site.id);
  const order = orderOf(pool);
  const keep = new Uint8Array(order.indices.length);
  const repeatsInPlace = d.repeats === 'lines' && d.firsts === undefined;
  // Only the sites this candidate keeps something of are visited (not the whole pool for every candidate render):
  // an error's own line when it is kept in place or is a variant; its window, stack and causes when it has its context.
  const selfOf = (site: number) => {
    const at = order.selfAt.get(site);
    if (at !== undefined) keep[at] = 1;
  };
  if (repeatsInPlace) for (const at of order.selfAt.values()) keep[at] = 1;
  else for (const site of variants) selfOf(site);
  for (const site of withContext) {
    const list = order.bySite.get(site);
    if (!list) continue;
    for (const { at, reason: r } of list) {
      if (r.kind === 'self' || (r.kind === 'window' ? r.rank <= d.window : r.kind === 'stack' ? r.rank <= d.stack : r.kind === 'cause' && d.stack > 0)) keep[at] = 1;
    }
  }
  const top = verbatim[0]?.sites[0].id;
  const corrFor = (site: number) => withContext.has(site) && (d.corrScope !== 'top' || site === top);
  if (d.corr > 0) {
    for (const [site, list] of order.corrBySite) {
      if (!corrFor(site)) continue;
      for (let n = 0; n < Math.min(d.corr, list.length); n++) keep[list[n]] = 1;
    }
  }
  const siteLines = siteLinesOf(scan);
  const out: string[] = [];
  let previous = -1;
  // The body's length as `fits` measures it (each line and its newline): past `cap`, the candidate cannot fit.
  let length = 0;
  const push = (line: string) => {
    out.push(line);
    length += line.length + 1;
  };
  for (let k = 0; k < keep.length; k++) {
    if (keep[k] === 0) continue;
    const index = order.indices[k];
    if (index > previous + 1) push(omitted(index - previous - 1));
    const line = pool.lines.get(index) ?? '';
    push(clipLogLine(line, siteLines.has(index) ? d.clip * 2 : d.clip));
    previous = index;
    if (length > cap) return { lines: out, firsts: verbatim.length, tooLong: true };
  }
  if (previous < scan.total - 1) push(omitted(scan.total - 1 - previous));
  return { lines: out, firsts: verbatim.length };
}

/** A pool's lines in order, with their reasons, and each error's correlated lines nearest first: made once per pool, read by every candidate. */
interface PoolOrder {
  indices: number[];
  /** Per error, the position (in `indices`) of its own line. */
  selfAt: Map<number, number>;
  /** Per error, the positions of the lines it may keep with its context (its own, window, stack, causes) and why. */
  bySite: Map<number, { at: number; reason: Reason }[]>;
  /** Per error, the positions (in `indices`) of its correlated lines, by distance then line. */
  corrBySite: Map<number, number[]>;
}

const orders = new WeakMap<Pool, PoolOrder>();

function orderOf(pool: Pool): PoolOrder {
  let order = orders.get(pool);
  if (order) return order;
  const indices = [...pool.reasons.keys()].sort((a, b) => a - b);
  const selfAt = new Map<number, number>();
  const bySite = new Map<number, { at: number; reason: Reason }[]>();
  const corr = new Map<number, { at: number; index: number; rank: number }[]>();
  indices.forEach((index, at) => {
    for (const r of pool.reasons.get(index)!) {
      if (r.kind === 'corr') {
        const list = corr.get(r.site);
        if (list) list.push({ at, index, rank: r.rank });
        else corr.set(r.site, [{ at, index, rank: r.rank }]);
        continue;
      }
      if (r.kind === 'self' && !selfAt.has(r.site)) selfAt.set(r.site, at);
      const list = bySite.get(r.site);
      if (list) list.push({ at, reason: r });
      else bySite.set(r.site, [{ at, reason: r }]);
    }
  });
  const corrBySite = new Map([...corr].map(([site, list]) => [site, list.sort((a, b) => a.rank - b.rank || a.index - b.index).map((c) => c.at)]));
  orders.set(pool, (order = { indices, selfAt, bySite, corrBySite }));
  return order;
}

const siteLineSets = new WeakMap<LogScan, Set<number>>();

/** The lines of the scan's error sites (kept with twice the clip). */
function siteLinesOf(scan: LogScan): Set<number> {
  let lines = siteLineSets.get(scan);
  if (!lines) siteLineSets.set(scan, (lines = new Set(scan.sites.map((site) => site.index))));
  return lines;
}
