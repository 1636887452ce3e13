import { InputError, type QuickFix } from './errors';
import { entryFixes, OVERRIDES_JSON, PINS_JSON } from './quick-fix';
import type { Warning } from './types';

/** One entry of the editor's Problems view, as plain data (src/vscode/diagnostics.ts turns it into a Diagnostic). */
export interface Problem {
  /** Workspace-relative file. */
  file: string;
  /** 1-based; the first line when the reader gave none. */
  line: number;
  /** 1-based start column; the whole line when absent. */
  column?: number;
  severity: 'error' | 'warning' | 'information';
  message: string;
  /** The quick fix an editor offers for it (replace a key, clamp a value, remove an entry). */
  fix?: QuickFix;
}

/** Sources that are not files: the literal task, builtin blocks, session events, pins by range. */
const NOT_A_FILE = /^(builtin:|session:|pin:|task$)/;

/**
 * What the Problems view shows for one assembly: the InputError that stopped it (policy, front matter, pins,
 * session, overrides: with line and column where the parser gave them), and every warning about a workspace file.
 * A redaction is information (the secret was handled); anything else about a file is a warning.
 */
export function problemsOf(warnings: Warning[], error: Error | undefined, isFile: (rel: string) => boolean): Problem[] {
  const out: Problem[] = [];
  if (error instanceof InputError && error.file && isFile(error.file)) {
    out.push({ file: error.file, line: error.line ?? 1, ...(error.column ? { column: error.column } : {}), severity: 'error', message: error.message, ...(error.fix ? { fix: error.fix } : {}) });
  }
  for (const w of warnings) {
    const file = w.source.replace(/#.*$/, '');
    if (NOT_A_FILE.test(file) || !isFile(file)) continue;
    out.push({ file, line: w.line ?? 1, ...(w.column ? { column: w.column } : {}), severity: w.rule ? 'information' : 'warning', message: w.message });
  }
  return out;
}

/**
 * The entries of `.context/pins.json` and `.context/overrides.json` that name no workspace path, as warnings at the
 * entry, each with the fix that removes it. `read` gives a file's text (undefined: absent).
 */
export function entryProblems(read: (rel: string) => string | undefined, exists: (rel: string) => boolean): Problem[] {
  return [PINS_JSON, OVERRIDES_JSON].flatMap((file) => {
    const text = read(file);
    return text === undefined ? [] : entryFixes(file, text, exists).map((f) => ({ file, line: f.line, column: f.column, severity: 'warning' as const, message: f.message, fix: f.fix }));
  });
}
