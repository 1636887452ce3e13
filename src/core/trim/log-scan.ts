import { redactLine } from '../redact/apply';
import { own } from './lines';
import { correlationId, isCauseLine, isStackLine, shortMessage, timestampOf } from './log-parse';
import { severityOf } from './severity';
import { TemplateMiner, templateText, type Cluster } from './templates';
import type { LineIndex } from './byte-lines';
import { scanFileBytes } from './log-bytes';
import { LEVEL_INFO, leadingLevelOf } from './level-column';
import type { Lines } from './types';

/**
 * Pass 1 of the log trimmer: it finds the errors (their ids, times and stack extents) and groups equal ones
 * (pass 2 is log-pool.ts). It never holds the log: memory is bounded by the caps below, whatever the input's size.
 */

/** Distinct templates itemised per severity; more are counted only. */
const MAX_GROUPS = 300;
/** Example ids kept per template. */
const MAX_IDS = 3;
/** Occurrences of one error located individually; more are counted, with their last time. */
const MAX_SITES_PER_GROUP = 50;
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
  /** Where a file's lines start (set when it was scanned from its bytes), for pass 2 to read only what it needs. */
  file?: LineIndex;
}

/**
 * Scans by input: measuring the evidence and trimming read the same `lines` (one snapshot's file), so the first
 * pass is made once. Keyed weakly by the function, so a new snapshot (new functions) scans afresh. A file's lines
 * (`lines.file`) are scanned from its bytes (log-bytes.ts), the same rules without decoding the info lines.
 */
const scans = new WeakMap<Lines, LogScan>();

/** Pass 1: errors and warnings, grouped by template; only errors get sites (their lines are kept verbatim). */
export function scanErrors(lines: Lines): LogScan {
  let scan = scans.get(lines);
  if (!scan) scans.set(lines, (scan = (lines.file !== undefined ? scanFile(lines.file) : undefined) ?? scanLines(lines)));
  return scan;
}

/** Pass 1 from the file's bytes; undefined when the streamed lines must be read instead (log-bytes.ts). */
function scanFile(abs: string): LogScan | undefined {
  // The byte path gives lines as decoded, not redacted: the scanner redacts the lines it keeps.
  const scanner = new ErrorScanner(redactLine);
  const file = scanFileBytes(abs, scanner, CORR_RADIUS);
  return file && { ...scanner.result(), file };
}

function scanLines(lines: Lines): LogScan {
  const scanner = new ErrorScanner();
  // As pass 1 on bytes does (log-bytes.ts): a line whose leading column says INFO is counted, not classified.
  for (const line of lines()) {
    if (leadingLevelOf(line) === LEVEL_INFO) scanner.info(1);
    else scanner.line(line);
  }
  return scanner.result();
}

/**
 * Pass 1, one line at a time. `line` takes a decoded line; `info` counts a line known to be an info line that is
 * no stack line (log-bytes.ts's leading INFO column), which `line` would only count and close the open stack on.
 *
 * `redact` is applied to the lines the scanner keeps anything of (error and warning lines: their message, template,
 * time and id), never to the others: given raw lines (log-bytes.ts) it is `redactLine`; given lines already redacted
 * (the stream), it is the identity. A line's level is read again after redaction, so that a redacted line is judged
 * as the stream judges it; a dropped line is judged on its raw text (a stack line, an info line), which redaction
 * does not change (a placeholder holds no level word).
 */
export class ErrorScanner {
  constructor(private readonly redact: (line: string) => string = (line) => line) {}

  private readonly groups: ErrorGroup[] = [];
  private readonly byCluster = new Map<string, number>();
  private readonly miners = { error: new TemplateMiner(MAX_GROUPS), warn: new TemplateMiner(MAX_GROUPS) };
  private readonly sites: ErrorSite[] = [];
  total = 0;
  private errors = 0;
  private warnings = 0;
  private uncounted = 0;
  private uncountedWarnings = 0;
  private firstError = -1;
  private firstWarning = -1;
  private open: ErrorSite | undefined;
  // A warning's stack trace belongs to the warning: its "Caused by: …Exception" lines are not errors of their own.
  private swallowing = false;

  info(n: number): 0 {
    this.total += n;
    this.open = undefined;
    this.swallowing = false;
    return 0;
  }

  /** True while lines that are stack frames belong to the error or warning before them. */
  get inStack(): boolean {
    return this.swallowing;
  }

  /** Count a line known to be a stack frame and no cause (`\tat …`), while `inStack`: what `line` would do with it. */
  frame(): void {
    const i = this.total++;
    if (this.open) this.open.stackEnd = i;
  }

  /** Count a decoded line; returns the correlation id of the error whose site it opens, if any. */
  line(raw: string): string | undefined {
    const i = this.total++;
    if (this.swallowing && isStackLine(raw)) {
      const open = this.open;
      if (!open) return undefined;
      open.stackEnd = i;
      if (isCauseLine(raw)) {
        open.causes.push(i);
        if (open.causes.length > MAX_CAUSES) open.causes.shift();
      }
      return undefined;
    }
    this.open = undefined;
    this.swallowing = false;
    let severity = severityOf(raw);
    if (severity === 'info') return undefined;
    const line = this.redact(raw);
    if (line !== raw && (severity = severityOf(line)) === 'info') return undefined;
    if (severity === 'error') {
      this.errors++;
      if (this.firstError < 0) this.firstError = i;
    } else {
      this.warnings++;
      if (this.firstWarning < 0) this.firstWarning = i;
    }
    this.swallowing = true;
    const message = shortMessage(line);
    const cluster = this.miners[severity].add(message);
    if (!cluster) {
      if (severity === 'error') this.uncounted++;
      else this.uncountedWarnings++;
      return undefined;
    }
    const key = `${severity}:${cluster.id}`;
    let g = this.byCluster.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.byCluster.set(key, g);
      this.groups.push({ severity, signature: '', cluster, ids: [], count: 0, firstIndex: i, lastIndex: i, sample: own(message), sites: [] });
    }
    const group = this.groups[g];
    const ts = timestampOf(line);
    group.count++;
    group.lastIndex = i;
    if (ts) {
      group.firstTs ??= own(ts);
      group.lastTs = own(ts);
    }
    const corr = correlationId(line);
    if (corr && group.ids.length < MAX_IDS && !group.ids.includes(corr)) group.ids.push(own(corr));
    if (severity !== 'error' || group.sites.length >= MAX_SITES_PER_GROUP) return undefined;
    this.open = { id: this.sites.length, group: g, index: i, corr: corr && own(corr), stackEnd: i, causes: [] };
    group.sites.push(this.open);
    this.sites.push(this.open);
    return this.open.corr;
  }

  result(): LogScan {
    for (const g of this.groups) g.signature = templateText(g.cluster);
    const firstEvidence = this.firstError >= 0 ? this.firstError : this.firstWarning;
    const { total, errors, warnings, groups, sites, uncounted, uncountedWarnings } = this;
    return { total, errors, warnings, firstEvidence, groups, sites, uncounted, uncountedWarnings };
  }
}

/**
 * Correlated lines are looked for this many lines around their error, at most: a request's lines are written
 * close together, and a bounded search keeps pass 2 from reading the whole of a large log again.
 */
export const CORR_RADIUS = 2_000;

