/** The contract every trimmer follows: lines in (re-iterable, streamed), extract out, with the figures. */

export interface TrimOptions {
  /** Token budget for the returned text. */
  maxTokens: number;
  /** Exact counter (only ever called on candidate outputs, never on the whole input). */
  count: (text: string) => number;
  windowLines: number;
  maxStackLines: number;
  headLines: number;
  tailLines: number;
}

export interface TrimOutput {
  text: string;
  originalLines: number;
  retainedLines: number;
  format: string;
  /** One-line account of what was dropped, shown in the notice. */
  note: string;
}

export type Lines = () => Iterable<string>;
export type Trimmer = (lines: Lines, options: TrimOptions) => TrimOutput;

/** Return the first candidate that fits the budget; the last one is shortened line by line as a final resort. */
export function firstThatFits(candidates: (() => string[])[], options: TrimOptions): string[] {
  let last: string[] = [];
  for (const make of candidates) {
    last = make();
    if (options.count(last.join('\n')) <= options.maxTokens) return last;
  }
  const marker = (n: number) => `… ${n} more lines dropped to fit the budget`;
  let keep = last.length;
  // Binary search for the longest prefix that fits with its marker.
  let lo = 0;
  let hi = keep;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const text = [...last.slice(0, mid), marker(last.length - mid)].join('\n');
    if (options.count(text) <= options.maxTokens) lo = mid;
    else hi = mid - 1;
  }
  keep = lo;
  return keep === last.length ? last : [...last.slice(0, keep), marker(last.length - keep)];
}
