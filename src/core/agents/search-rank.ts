import * as path from 'node:path';

/**
 * The order in which search_workspace shows its matches. Without it the first 50 matching lines in scan order were
 * shown, so one log holding hundreds of matches hid every hit in the code. Now each file shows at most `perFile`
 * lines and says how many it holds in all; when the query is an identifier, code comes first, then documents, then
 * other text, then logs and tool output. Pure: matches in, the lines to print out.
 */

/** One file's matches: how many lines match in all, and the first few (a log may hold thousands). */
export interface FileMatches {
  path: string;
  total: number;
  first: { line: number; text: string }[];
}

export type FileClass = 'code' | 'docs' | 'other' | 'logs';

export const SEARCH_PER_FILE = 5;
export const SEARCH_MAX_SHOWN = 50;

const CODE = new Set(['java', 'kt', 'kts', 'scala', 'groovy', 'ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'py', 'go', 'rs', 'rb', 'php', 'cs', 'c', 'h', 'cc', 'cpp', 'hpp', 'swift', 'm', 'sql', 'sh', 'vue', 'svelte']);
const DOCS = new Set(['md', 'mdx', 'markdown', 'rst', 'adoc', 'txt']);

/** A file's class by its extension; `isLog` is the policy's tool-output globs (and `.log`). */
export function fileClass(p: string, isLog: (p: string) => boolean): FileClass {
  const ext = path.posix.extname(p).slice(1).toLowerCase();
  if (ext === 'log' || isLog(p)) return 'logs';
  if (CODE.has(ext)) return 'code';
  if (DOCS.has(ext)) return 'docs';
  return 'other';
}

/** An identifier: a name as code writes it (`PaymentValidator`, `payment_method`, `order.total`), no spaces. */
export function isIdentifierQuery(query: string): boolean {
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(query.trim());
}

const RANK: Record<FileClass, number> = { code: 0, docs: 1, other: 2, logs: 3 };

export interface RankedSearch {
  /** Printed lines: `path:line: text`, and `path: N more matching lines (M in all)` after a capped file. */
  lines: string[];
  shown: number;
  matches: number;
  files: number;
  /** Per file, in the order shown: matches in all and shown. */
  perFile: { path: string; class: FileClass; matches: number; shown: number }[];
  perFileCap: number;
}

export function rankSearch(found: FileMatches[], query: string, options: { isLog: (p: string) => boolean; perFile?: number; maxShown?: number }): RankedSearch {
  const perFileCap = options.perFile ?? SEARCH_PER_FILE;
  const maxShown = options.maxShown ?? SEARCH_MAX_SHOWN;
  const ident = isIdentifierQuery(query);
  const files = found.filter((f) => f.total > 0).map((f, order) => ({ ...f, order, class: fileClass(f.path, options.isLog) }));
  if (ident) files.sort((a, b) => RANK[a.class] - RANK[b.class] || a.order - b.order);
  const lines: string[] = [];
  const perFile: RankedSearch['perFile'] = [];
  let shown = 0;
  for (const f of files) {
    const take = Math.max(0, Math.min(perFileCap, f.first.length, maxShown - shown));
    for (const m of f.first.slice(0, take)) lines.push(`${f.path}:${m.line}: ${m.text}`);
    const more = f.total - take;
    if (more > 0) lines.push(`${f.path}: ${more} more matching line${more === 1 ? '' : 's'} (${f.total} in all)`);
    shown += take;
    perFile.push({ path: f.path, class: f.class, matches: f.total, shown: take });
  }
  return { lines, shown, matches: files.reduce((n, f) => n + f.total, 0), files: files.length, perFile, perFileCap };
}

/** The head line: `329 matching lines in 7 files for "X" (27 shown, at most 5 per file; code and documents first)`. */
export function searchHead(r: RankedSearch, query: string, searchedFiles: number): string {
  if (r.matches === 0) return `no match for "${query}" in ${searchedFiles} files`;
  const order = isIdentifierQuery(query) ? '; code and documents first, logs last' : '';
  return `${r.matches} matching line${r.matches === 1 ? '' : 's'} in ${r.files} file${r.files === 1 ? '' : 's'} for "${query}" (${r.shown} shown, at most ${r.perFileCap} per file${order})`;
}
