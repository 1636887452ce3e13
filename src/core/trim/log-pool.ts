import { linesAt, type LineIndex } from './byte-lines';
import { own } from './lines';
import { correlationId } from './log-parse';
import { CORR_RADIUS, type ErrorSite, type LogScan } from './log-scan';
import type { Lines } from './types';

/**
 * Pass 2 of the log trimmer: gather only the lines any candidate could keep into a small pool, with why each
 * might be kept. From the file's bytes when pass 1 read them (the wanted lines, and the correlated lines pass 1
 * found), else from the streamed lines.
 */

/** Correlated lines pooled per error (the nearest ones win). */
const MAX_CORR_PER_SITE = 48;

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

/**
 * Which errors' context (window, stack, causes, correlated lines) is pooled; every error's own line is pooled
 * whatever this says.
 */
export type ContextOf = (site: ErrorSite) => boolean;

const everyError: ContextOf = () => true;

/** Why each line near an error may be kept: the error itself, its window, its stack and its causes. */
export function siteReasons(scan: LogScan, window: number, stack: number, contextOf: ContextOf = everyError): Map<number, Reason[]> {
  const reasons = new Map<number, Reason[]>();
  const add = (index: number, reason: Reason) => {
    if (index < 0 || index >= scan.total) return;
    const list = reasons.get(index);
    if (list) list.push(reason);
    else reasons.set(index, [reason]);
  };
  for (const s of scan.sites) {
    add(s.index, { site: s.id, kind: 'self', rank: 0 });
    if (!contextOf(s)) continue;
    for (let d = 1; d <= window; d++) {
      add(s.index - d, { site: s.id, kind: 'window', rank: d });
      add(s.index + d, { site: s.id, kind: 'window', rank: d });
    }
    for (let i = s.index + 1; i <= Math.min(s.stackEnd, s.index + stack); i++) add(i, { site: s.id, kind: 'stack', rank: i - s.index });
    for (const c of s.causes) if (c > s.index + stack) add(c, { site: s.id, kind: 'cause', rank: c - s.index });
  }
  return reasons;
}

/** The errors of each correlation id (of those whose context is pooled). */
export function sitesByCorr(scan: LogScan, contextOf: ContextOf = everyError): Map<string, ErrorSite[]> {
  const byCorr = new Map<string, ErrorSite[]>();
  for (const s of scan.sites) if (s.corr && contextOf(s)) byCorr.set(s.corr, [...(byCorr.get(s.corr) ?? []), s]);
  return byCorr;
}

/** What pass 2 reads: the wanted lines, and for each error the lines within CORR_RADIUS that share its id. */
export interface Gathered {
  pooled: Map<number, string>;
  corrLines: Map<number, number[]>;
}

/** Note line `i` (with correlation id `id`) against the errors of that id it is near. True when it is one's. */
export function noteCorrelated(gathered: Gathered, related: ErrorSite[] | undefined, i: number): boolean {
  let near = false;
  for (const s of related ?? []) {
    if (s.index === i || Math.abs(s.index - i) > CORR_RADIUS) continue;
    near = true;
    const list = gathered.corrLines.get(s.id) ?? [];
    list.push(i);
    if (list.length > 2 * MAX_CORR_PER_SITE) nearest(list, s.index, MAX_CORR_PER_SITE);
    gathered.corrLines.set(s.id, list);
  }
  return near;
}

/** Pass 2: gather the lines the most generous candidate could keep (with the context of the errors `contextOf` names). */
export function gatherPool(lines: Lines, scan: LogScan, window: number, stack: number, contextOf: ContextOf = everyError): Pool {
  const reasons = siteReasons(scan, window, stack, contextOf);
  const byCorr = sitesByCorr(scan, contextOf);
  const gathered = (scan.file ? readPool(scan.file, reasons, byCorr) : undefined) ?? streamPool(lines, reasons, byCorr);
  for (const [site, list] of gathered.corrLines) {
    const s = scan.sites[site];
    nearest(list, s.index, MAX_CORR_PER_SITE);
    for (const index of list) {
      const reason: Reason = { site, kind: 'corr', rank: Math.abs(index - s.index) };
      const known = reasons.get(index);
      if (known) known.push(reason);
      else reasons.set(index, [reason]);
    }
  }
  const pooled = gathered.pooled;
  for (const index of pooled.keys()) if (!reasons.has(index)) pooled.delete(index);
  return { lines: pooled, reasons };
}

/**
 * Pools by scan: the chain trims a log again when the zone it may fill grows (another budget, the same lines and
 * scan), and a pool depends only on the scan, the window, the stack depth and whose context it holds. Gathered
 * once per scan and shape (its lines read back and redacted once), dropped with the scan.
 */
const pools = new WeakMap<LogScan, Map<string, Pool>>();

export function pooled(lines: Lines, scan: LogScan, window: number, stack: number, whose: 'every' | 'firsts'): Pool {
  let byShape = pools.get(scan);
  if (!byShape) pools.set(scan, (byShape = new Map()));
  const key = `${window} ${stack} ${whose}`;
  let pool = byShape.get(key);
  if (!pool) {
    pool = whose === 'every' ? gatherPool(lines, scan, window, stack) : gatherPool(lines, scan, window, stack, (site) => scan.groups[site.group].sites[0] === site);
    byShape.set(key, pool);
  }
  return pool;
}

/** True when pass 2 reads its lines by index from the file's bytes (cheap to gather again), not the whole stream. */
export function readsByIndex(scan: LogScan): boolean {
  return scan.file !== undefined && (scan.file.correlated !== undefined || !scan.sites.some((s) => s.corr));
}

/** Pass 2 from the file's bytes: the wanted lines, and the correlated lines pass 1 found near the errors. */
function readPool(file: LineIndex, reasons: Map<number, Reason[]>, byCorr: Map<string, ErrorSite[]>): Gathered | undefined {
  if (byCorr.size > 0 && !file.correlated) return undefined;
  const wanted = linesAt(file, [...reasons.keys()].sort((a, b) => a - b));
  if (!wanted) return undefined;
  const gathered: Gathered = { pooled: wanted, corrLines: new Map() };
  for (const [i, line] of [...(file.correlated ?? [])].sort((a, b) => a[0] - b[0])) {
    const id = correlationId(line);
    if (id !== undefined && noteCorrelated(gathered, byCorr.get(id), i)) gathered.pooled.set(i, line);
  }
  return gathered;
}

function streamPool(lines: Lines, reasons: Map<number, Reason[]>, byCorr: Map<string, ErrorSite[]>): Gathered {
  const gathered: Gathered = { pooled: new Map(), corrLines: new Map() };
  let i = 0;
  for (const line of lines()) {
    const id = byCorr.size > 0 ? correlationId(line) : undefined;
    const near = id !== undefined && noteCorrelated(gathered, byCorr.get(id), i);
    if (near || reasons.has(i)) gathered.pooled.set(i, own(line));
    i++;
  }
  return gathered;
}

/** Keep, in place, the `n` indices nearest to `center`. */
export function nearest(list: number[], center: number, n: number): void {
  list.sort((a, b) => Math.abs(a - center) - Math.abs(b - center) || a - b);
  list.length = Math.min(list.length, n);
}
