import { own } from './lines';
import { correlationId, isCauseLine, isStackLine, shortMessage, timestampOf } from './log-parse';
import { severityOf } from './severity';
import { TemplateMiner, templateText, type Cluster } from './templates';
import type { Lines } from './types';

/**
 * The two streaming passes of the log trimmer. Pass 1 finds the errors (their ids, times and stack extents) and
 * groups equal ones; pass 2 gathers only the lines any candidate could keep into a small pool. Neither holds the
 * log: memory is bounded by the caps below, whatever the size of the input.
 */

/** Distinct templates itemised per severity; more are counted only. */
const MAX_GROUPS = 300;
/** Example ids kept per template. */
const MAX_IDS = 3;
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
  severity: 'error' | 'warn';
  /** The template (masked parts as `<*>`), final once the scan is done. */
  signature: string;
  cluster: Cluster;
  /** Correlation ids of the first occurrences. */
  ids: string[];
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
  warnings: number;
  /** Line index of the first error (or warning when there is no error), -1 when none. */
  firstEvidence: number;
  groups: ErrorGroup[];
  sites: ErrorSite[];
  /** Error and warning lines whose template came after MAX_GROUPS distinct ones. */
  uncounted: number;
  uncountedWarnings: number;
}

/**
 * Scans by input: measuring the evidence and trimming read the same `lines` (one snapshot's file), so the first
 * pass is made once. Keyed weakly by the function, so a new snapshot (new functions) scans afresh.
 */
const scans = new WeakMap<Lines, LogScan>();

/** Pass 1: errors and warnings, grouped by template; only errors get sites (their lines are kept verbatim). */
export function scanErrors(lines: Lines): LogScan {
  let scan = scans.get(lines);
  if (!scan) scans.set(lines, (scan = scanLines(lines)));
  return scan;
}

function scanLines(lines: Lines): LogScan {
  const groups: ErrorGroup[] = [];
  const byCluster = new Map<string, number>();
  const miners = { error: new TemplateMiner(MAX_GROUPS), warn: new TemplateMiner(MAX_GROUPS) };
  const sites: ErrorSite[] = [];
  let total = 0;
  let errors = 0;
  let warnings = 0;
  let uncounted = 0;
  let uncountedWarnings = 0;
  let firstError = -1;
  let firstWarning = -1;
  let open: ErrorSite | undefined;
  // A warning's stack trace belongs to the warning: its "Caused by: …Exception" lines are not errors of their own.
  let swallowing = false;
  for (const line of lines()) {
    const i = total++;
    if (swallowing && isStackLine(line)) {
      if (!open) continue;
      open.stackEnd = i;
      if (isCauseLine(line)) {
        open.causes.push(i);
        if (open.causes.length > MAX_CAUSES) open.causes.shift();
      }
      continue;
    }
    open = undefined;
    swallowing = false;
    const severity = severityOf(line);
    if (severity === 'info') continue;
    if (severity === 'error') {
      errors++;
      if (firstError < 0) firstError = i;
    } else {
      warnings++;
      if (firstWarning < 0) firstWarning = i;
    }
    swallowing = true;
    const message = shortMessage(line);
    const cluster = miners[severity].add(message);
    if (!cluster) {
      if (severity === 'error') uncounted++;
      else uncountedWarnings++;
      continue;
    }
    const key = `${severity}:${cluster.id}`;
    let g = byCluster.get(key);
    if (g === undefined) {
      g = groups.length;
      byCluster.set(key, g);
      groups.push({ severity, signature: '', cluster, ids: [], count: 0, firstIndex: i, lastIndex: i, sample: own(message), sites: [] });
    }
    const group = groups[g];
    const ts = timestampOf(line);
    group.count++;
    group.lastIndex = i;
    if (ts) {
      group.firstTs ??= own(ts);
      group.lastTs = own(ts);
    }
    const corr = correlationId(line);
    if (corr && group.ids.length < MAX_IDS && !group.ids.includes(corr)) group.ids.push(own(corr));
    if (severity !== 'error' || group.sites.length >= MAX_SITES_PER_GROUP) continue;
    open = { id: sites.length, group: g, index: i, corr: corr && own(corr), stackEnd: i, causes: [] };
    group.sites.push(open);
    sites.push(open);
  }
  for (const g of groups) g.signature = templateText(g.cluster);
  const firstEvidence = firstError >= 0 ? firstError : firstWarning;
  return { total, errors, warnings, firstEvidence, groups, sites, uncounted, uncountedWarnings };
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
