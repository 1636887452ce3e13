/** The contract every trimmer follows: lines in (re-iterable, streamed), extract out, with the figures. */

export interface TrimOptions {
  /** Token budget for the returned text. */
  maxTokens: number;
  /**
   * Exact counter (only ever called on candidate outputs, never on the whole input). Given a `limit`, it may stop
   * once the count passes it and return any number above it: a candidate over budget is never counted whole.
   */
  count: (text: string, limit?: number) => number;
  /** Log lines kept before and after each error line. */
  windowLines: number;
  /** Lines of a stack trace kept after the line that starts it. */
  maxStackLines: number;
  /** Command output: lines kept from the start and from the end. */
  headLines: number;
  tailLines: number;
  /** Longer lines are clipped, with a marker saying how many characters went. */
  maxLineChars: number;
  /** JSON payloads: how many of the first records are kept whole. */
  jsonRecords: number;
  /** Where the full text is (a workspace path or an offload path), named in the "left out: inspect with …" line. */
  reference?: string;
}

export interface TrimOutput {
  text: string;
  originalLines: number;
  retainedLines: number;
  format: string;
  /** One-line account of what was dropped, shown in the notice. */
  note: string;
  /** Log trims: error and warning templates found and kept (rows in the text). */
  templates?: TemplateCounts;
}

export interface TemplateCounts {
  errors: number;
  warnings: number;
  kept_errors: number;
  kept_warnings: number;
}

/** Lines, streamed; `file` when they are a file's lines as `redactedFileLines` reads them (the log scan reads its bytes). */
export type Lines = (() => Iterable<string>) & { file?: string };
export type Trimmer = (lines: Lines, options: TrimOptions) => TrimOutput;

/** The marker put in place of the lines a budget cut removed. */
export const budgetMarker = (n: number): string => `… ${n} more lines dropped to fit the budget`;

/** True when `text` fits `options.maxTokens`; the count is bounded by the budget, so a long text is not counted whole. */
export function fitsBudget(text: string, options: TrimOptions): boolean {
  return options.count(text, options.maxTokens) <= options.maxTokens;
}

/**
 * Return the first candidate that fits the budget; the last one is shortened line by line as a final resort. Only
 * candidates are counted, never the input, and each only up to the budget (`fitsBudget`).
 */
export function firstThatFits(candidates: (() => string[])[], options: TrimOptions): string[] {
  let last: string[] = [];
  for (const make of candidates) {
    last = make();
    if (fitsBudget(last.join('\n'), options)) return last;
  }
  // Binary search for the longest prefix that fits with its marker.
  let lo = 0;
  let hi = last.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const text = [...last.slice(0, mid), budgetMarker(last.length - mid)].join('\n');
    if (fitsBudget(text, options)) lo = mid;
    else hi = mid - 1;
  }
  return lo === last.length ? last : [...last.slice(0, lo), budgetMarker(last.length - lo)];
}
