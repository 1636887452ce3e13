import { own } from './lines';
import { correlationId, errorSignature, isCauseLine, isErrorLine, isStackLine, shortMessage, timestampOf } from './log-parse';
import type { Lines } from './types';

/**
 * The two streaming passes of the log trimmer. Pass 1 finds the errors (their ids, times and stack extents) and
 * groups equal ones; pass 2 gathers only the lines any candidate could keep into a small pool. Neither holds the
 * log: memory is bounded by the caps below, whatever the size of the input.
 */

/** Distinct errors itemised; more are counted only. */
const MAX_GROUPS = 200;
/** Occurrences of one error located individually; more are counted, with their last time. */
const MAX_SITES_PER_GROUP = 50;
/** Correlated lines pooled per error (the nearest ones win). */
const MAX_CORR_PER_SITE = 48;
/** Stack lines past the cap that are still kept: root causes, Python's closing exception line. */
const MAX_CAUSES = 3;

export interface ErrorSite {
  id: number;
  group: number;
  index: number;
  corr?: string;
  stackEnd: number;
  /** Indices of cause lines of the stack (the last few). */
  causes: number[];
}

export interface ErrorGroup {
  signature: string;
  count: number;
  firstTs?: string;
  lastTs?: string;
  firstIndex: number;
  lastIndex: number;
  /** The first occurrence's message, for the collapsed line. */
  sample: string;
  sites: ErrorSite[];
}

export interface LogScan {
  total: number;
  errors: number;
  groups: ErrorGroup[];
  sites: ErrorSite[];
  /** Errors whose signature came after MAX_GROUPS distinct ones. */
  uncounted: number;
}

/** Pass 1. */
export function scanErrors(lines: Lines): LogScan {
  const groups: ErrorGroup[] = [];
  const bySignature = new Map<string, number>();
  const sites: ErrorSite[] = [];
  let total = 0;
  let errors = 0;
  let uncounted = 0;
  let open: ErrorSite | undefined;
  for (const line of lines()) {
    const i = total++;
    if (open && isStackLine(line)) {
      open.stackEnd = i;
      if (isCauseLine(line)) {
        open.causes.push(i);
        if (open.causes.length > MAX_CAUSES) open.causes.shift();
      }
      continue;
    }
    open = undefined;
    if (!isErrorLine(line)) continue;
    errors++;
    const signature = errorSignature(line);
    let g = bySignature.get(signature);
    if (g === undefined) {
      if (groups.length >= MAX_GROUPS) {
        uncounted++;
        continue;
      }
      g = groups.length;
      bySignature.set(signature, g);
      groups.push({ signature, count: 0, firstIndex: i, lastIndex: i, sample: own(shortMessage(line)), sites: [] });
    }
    const group = groups[g];
    const ts = timestampOf(line);
    group.count++;
    group.lastIndex = i;
    if (ts) {
      group.firstTs ??= own(ts);
      group.lastTs = own(ts);
    }
    if (group.sites.length >= MAX_SITES_PER_GROUP) continue;
    const corr = correlationId(line);
    open = { id: sites.length, group: g, index: i, corr: corr && own(corr), stackEnd: i, causes: [] };
    group.sites.push(open);
    sites.push(open);
  }
  return { total, errors, groups, sites, uncounted };
}

export type ReasonKind = 'self' | 'window' | 'stack' | 'cause' | 'corr';

/** Why a pooled line might be kept: for which error, how, and how far from it (lines, or position in the stack). */
export interface Reason {
  site: number;
  kind: ReasonKind;
  rank: number;
}

export interface Pool {
  lines: Map<number, string>;
  reasons: Map<number, Reason[]>;
}

/** Pass 2: gather the lines the most generous candidate could keep. */
export function gatherPool(lines: Lines, scan: LogScan, window: number, stack: number): Pool {
  const reasons = new Map<number, Reason[]>();
  const add = (index: number, reason: Reason) => {
    if (index < 0 || index >= scan.total) return;
    const list = reasons.get(index);
    if (list) list.push(reason);
    else reasons.set(index, [reason]);
  };
  const byCorr = new Map<string, ErrorSite[]>();
  for (const s of scan.sites) {
    add(s.index, { site: s.id, kind: 'self', rank: 0 });
    for (let d = 1; d <= window; d++) {
      add(s.index - d, { site: s.id, kind: 'window', rank: d });
      add(s.index + d, { site: s.id, kind: 'window', rank: d });
    }
    for (let i = s.index + 1; i <= Math.min(s.stackEnd, s.index + stack); i++) add(i, { site: s.id, kind: 'stack', rank: i - s.index });
    for (const c of s.causes) if (c > s.index + stack) add(c, { site: s.id, kind: 'cause', rank: c - s.index });
    if (s.corr) byCorr.set(s.corr, [...(byCorr.get(s.corr) ?? []), s]);
  }
  const corrLines = new Map<number, number[]>();
  const pooled = new Map<number, string>();
  let i = 0;
  for (const line of lines()) {
    let keep = reasons.has(i);
    const id = byCorr.size > 0 ? correlationId(line) : undefined;
    const related = id !== undefined ? byCorr.get(id) : undefined;
    if (related) {
      keep = true;
      for (const s of related) {
        if (s.index === i) continue;
        const list = corrLines.get(s.id) ?? [];
        list.push(i);
        if (list.length > 2 * MAX_CORR_PER_SITE) nearest(list, s.index, MAX_CORR_PER_SITE);
        corrLines.set(s.id, list);
      }
    }
    if (keep) pooled.set(i, own(line));
    i++;
  }
  for (const [site, list] of corrLines) {
    const s = scan.sites[site];
    nearest(list, s.index, MAX_CORR_PER_SITE);
    for (const index of list) add(index, { site, kind: 'corr', rank: Math.abs(index - s.index) });
  }
  for (const index of pooled.keys()) if (!reasons.has(index)) pooled.delete(index);
  return { lines: pooled, reasons };
}

/** Keep, in place, the `n` indices nearest to `center`. */
function nearest(list: number[], center: number, n: number): void {
  list.sort((a, b) => Math.abs(a - center) - Math.abs(b - center) || a - b);
  list.length = Math.min(list.length, n);
}
