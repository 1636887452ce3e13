/** Errors the chain reports to people. Each names the file, and the line and column where there is one. */

/** One replacement in a file's text, by offset; `expect` is the text it replaces (a fix whose text moved is not applied). */
export interface TextEdit {
  offset: number;
  length: number;
  text: string;
  expect: string;
}

/** What an editor's quick fix does for one error: replace a key by the suggested one, clamp a value, remove an entry. */
export interface QuickFix {
  kind: 'replace' | 'clamp' | 'remove';
  title: string;
  edits: TextEdit[];
}

export class InputError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
    readonly column?: number,
    /** The fix an editor can offer for it, when there is one obvious fix. */
    readonly fix?: QuickFix,
  ) {
    super(message);
    this.name = 'InputError';
  }

  /** `file:line:col: message`, the form editors and terminals turn into links. */
  get location(): string {
    if (!this.file) return '';
    return [this.file, this.line, this.line !== undefined ? this.column : undefined].filter((x) => x !== undefined).join(':');
  }

  override toString(): string {
    return this.location ? `${this.location}: ${this.message}` : this.message;
  }
}

export interface OversizedBlock {
  id: string;
  source: string;
  kind: string;
  tokens: number;
}

/** The protected zone alone does not fit: the call is refused, never silently cut. */
export class ContextBudgetExceeded extends Error {
  constructor(
    readonly maxInput: number,
    readonly mandatoryTokens: number,
    readonly blocks: OversizedBlock[],
  ) {
    super(
      `ContextBudgetExceeded: the mandatory blocks need ${mandatoryTokens} tokens but max_input is ${maxInput}.\n` +
        (blocks.some((b) => b.kind === 'session_summary') ? '  (the session summary is never cut either, so it counts with them)\n' : '') +
        blocks.map((b) => `  ${b.kind.padEnd(20)} ${b.source.padEnd(40)} ${b.tokens} tokens`).join('\n'),
    );
    this.name = 'ContextBudgetExceeded';
  }
}

/** A kept cache file's bytes are over the size it could load again: nothing was written (a store's `save` throws it). */
export class OverLimit extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverLimit';
  }
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
