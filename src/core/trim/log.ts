import { firstThatFits, type Lines, type TrimOptions, type TrimOutput } from './types';

/**
 * Log trimming (seed 000): keep each error with its timestamp, its correlation id, the lines around it and the
 * lines that share its id; collapse repeats of the same error. Two streaming passes, so a 50 MB log is never whole
 * in memory: the first finds the errors, the second keeps their lines.
 */

const ERROR_LEVEL = /(?:^|[\s\[|])(?:ERROR|FATAL|SEVERE|CRITICAL|PANIC|ERR|CRIT)(?=[\s\]|:]|$)/;
const STRUCTURED_ERROR = /"(?:level|severity|severity_text|severityText|lvl)"\s*:\s*(?:"(?:error|fatal|critical|panic|err|crit)"|[56]0)\b|\b(?:level|lvl|severity)=(?:"?)(?:error|fatal|critical|panic|err|crit)\b/i;
const STACK_LINE = /^(\s+at\s|[a-zA-Z_$][\w$.]*(?:Exception|Error|Throwable)(?::|$)|\s*Caused by:|\s+\.\.\. \d+ (?:more|common frames)|Traceback \(most recent call last\)|\s+File ".*", line \d+|\s{2,}\S)/;
const CORRELATION = /\b(?:corr|correlation[_-]?id|trace[_-]?id|traceId|request[_-]?id|x-request-id|span[_-]?id)["']?\s*[=:]\s*"?([A-Za-z0-9._:-]{6,})/i;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/;

export function isErrorLine(line: string): boolean {
  return ERROR_LEVEL.test(line) || STRUCTURED_ERROR.test(line);
}

export function correlationId(line: string): string | undefined {
  return CORRELATION.exec(line)?.[1];
}

/** The error's message with its timestamp, ids, numbers and thread stripped: equal signatures are "the same error". */
export function errorSignature(line: string): string {
  return line
    .replace(TIMESTAMP, '')
    .replace(CORRELATION, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '')
    .replace(/\b\d+(\.\d+)?(ms|s)?\b/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

interface ErrorSite {
  index: number;
  signature: string;
  corr?: string;
  ts?: string;
  stackEnd: number;
  /** Keep only the line itself (a repeat of an error already shown in context). */
  bare?: boolean;
}

export function trimLog(lines: Lines, options: TrimOptions): TrimOutput {
  // Pass 1: find the errors, their ids and the extent of their stack traces.
  const errors: ErrorSite[] = [];
  let total = 0;
  let open: ErrorSite | undefined;
  for (const line of lines()) {
    if (open && STACK_LINE.test(line) && total - open.index <= options.maxStackLines) open.stackEnd = total;
    else open = undefined;
    if (isErrorLine(line)) {
      open = { index: total, signature: errorSignature(line), corr: correlationId(line), ts: TIMESTAMP.exec(line)?.[0], stackEnd: total };
      errors.push(open);
    }
    total++;
  }
  if (errors.length === 0) return headTail(lines, total, options);

  const bySignature = new Map<string, ErrorSite[]>();
  for (const e of errors) bySignature.set(e.signature, [...(bySignature.get(e.signature) ?? []), e]);
  const firsts = [...bySignature.values()].map((sites) => sites[0]);

  // Pass 2 (per candidate): keep the wanted line indices, in file order.
  const gather = (sites: ErrorSite[], window: number, withCorr: boolean, stackCap: number): string[] => {
    const wanted = new Set<number>();
    const corrs = new Set(withCorr ? sites.filter((s) => !s.bare).map((s) => s.corr).filter((c): c is string => !!c) : []);
    for (const s of sites) {
      if (s.bare) {
        wanted.add(s.index);
        continue;
      }
      for (let i = Math.max(0, s.index - window); i <= Math.min(total - 1, s.index + window); i++) wanted.add(i);
      for (let i = s.index; i <= Math.min(s.stackEnd, s.index + stackCap); i++) wanted.add(i);
    }
    const out: string[] = [];
    let i = 0;
    let previous = -1;
    for (const line of lines()) {
      if (wanted.has(i) || (corrs.size > 0 && corrs.has(correlationId(line) ?? ''))) {
        if (previous >= 0 && i > previous + 1) out.push(`… ${i - previous - 1} lines omitted`);
        out.push(line);
        previous = i;
      }
      i++;
    }
    if (previous < total - 1) out.push(`… ${total - 1 - previous} lines omitted`);
    return out;
  };
  const repeats = [...bySignature.values()]
    .filter((sites) => sites.length > 1)
    .map((sites) => `[repeated ×${sites.length}, first ${sites[0].ts ?? `line ${sites[0].index + 1}`}, last ${sites[sites.length - 1].ts ?? `line ${sites[sites.length - 1].index + 1}`}] ${sites[0].signature}`);
  const withRepeats = (body: string[]) => (repeats.length ? [...body, '', 'Repeated errors (collapsed):', ...repeats] : body);
  const errorLinesOnly = (): string[] => {
    const wanted = new Set(firsts.map((s) => s.index));
    const out: string[] = [];
    let i = 0;
    for (const line of lines()) {
      if (wanted.has(i)) out.push(line);
      i++;
    }
    return out;
  };

  const w = options.windowLines;
  const stack = options.maxStackLines;
  const firstSet = new Set(firsts);
  const others = errors.filter((e) => !firstSet.has(e));
  // Repeats keep their own line (timestamp and correlation id) but not their context.
  const bare = (sites: ErrorSite[]) => sites.map((s) => ({ ...s, bare: true }));
  const mixed = [...firsts, ...bare(others)];
  const small = Math.min(3, stack);
  const kept = firstThatFits(
    [
      () => gather(errors, w, true, stack),
      () => gather(mixed, w, true, stack),
      () => gather(mixed, w, true, small),
      () => gather(mixed, 0, true, small),
      () => gather(mixed, 0, false, small),
      () => withRepeats(gather(firsts, 0, false, small)),
      () => withRepeats(errorLinesOnly()),
    ],
    options,
  );
  const retained = kept.filter((l) => !l.startsWith('… ') && l !== '' && l !== 'Repeated errors (collapsed):').length;
  return {
    text: kept.join('\n'),
    originalLines: total,
    retainedLines: retained,
    format: 'log',
    note: `${errors.length} error lines (${bySignature.size} distinct) kept with timestamps, correlation ids and neighbouring lines`,
  };
}

/** No error found: keep the head and tail of the log. */
function headTail(lines: Lines, total: number, options: TrimOptions): TrimOutput {
  const head: string[] = [];
  const tail: string[] = [];
  let i = 0;
  for (const line of lines()) {
    if (i < options.headLines) head.push(line);
    else {
      tail.push(line);
      if (tail.length > options.tailLines) tail.shift();
    }
    i++;
  }
  const dropped = total - head.length - tail.length;
  const body = dropped > 0 ? [...head, `… ${dropped} lines omitted (no error found)`, ...tail] : [...head, ...tail];
  const kept = firstThatFits([() => body], options);
  return { text: kept.join('\n'), originalLines: total, retainedLines: kept.filter((l) => !l.startsWith('… ')).length, format: 'log', note: 'no error found: head and tail kept' };
}
