import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InputError, nearest, type QuickFix } from '../errors';
import { replaceFix } from '../quick-fix';
import type { Warning } from '../types';
import { checkInputFile, fsReason } from './scan';
import { resolveInWorkspace } from './guard';
import { writeWhole } from '../write-whole';

/**
 * The user's overrides for one workspace, shared by the editor and `ctxctl` through `.context/overrides.json`:
 * `{"version": 1, "include": ["docs/adr/0007.md"], "exclude": ["docs/old.md"]}`. A path is workspace-relative with
 * `/` separators; a path ending in `/` names every file below that folder.
 */
export interface Overrides {
  include: string[];
  exclude: string[];
}

export type OverrideAction = 'include' | 'exclude';

export const OVERRIDES_FILE = '.context/overrides.json';
const KEYS = new Set(['version', 'include', 'exclude']);

export function emptyOverrides(): Overrides {
  return { include: [], exclude: [] };
}

/** Parse and validate the file's text. Bad input is one InputError with the file, line and column. */
export function parseOverrides(text: string, file = OVERRIDES_FILE, check?: (p: string) => string | undefined): Overrides {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const fail = (message: string, offset: number, fix?: QuickFix) => {
    const where = lineColumn(text, offset);
    return new InputError(message, file, where.line, where.column, fix);
  };
  if (errors.length > 0 || !tree) throw fail(`invalid overrides file: ${errors.length ? printParseErrorCode(errors[0].error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'empty'}`, errors[0]?.offset ?? 0);
  if (tree.type !== 'object') throw fail('overrides file must hold an object {"version": 1, "include": [...], "exclude": [...]}', tree.offset);
  for (const prop of tree.children ?? []) {
    const key = prop.children?.[0];
    if (key && !KEYS.has(key.value as string)) {
      const hint = nearest(key.value as string, [...KEYS]) as string;
      throw fail(`unknown key "${key.value as string}"; did you mean "${hint}"? (keys: version, include, exclude)`, key.offset, replaceFix(text, key.offset, key.offset + key.length, hint, 'replace', `Replace "${key.value as string}" with "${hint}"`));
    }
  }
  const version = findNodeAtLocation(tree, ['version']);
  if (version && version.value !== 1) throw fail(`"version" must be 1, got ${text.slice(version.offset, version.offset + version.length)}`, version.offset, { kind: 'clamp', title: 'Change "version" to 1', edits: [{ offset: version.offset, length: version.length, text: '1', expect: text.slice(version.offset, version.offset + version.length) }] });
  const list = (key: OverrideAction): string[] => {
    const node = findNodeAtLocation(tree, [key]);
    if (!node) return [];
    if (node.type !== 'array') throw fail(`"${key}" must be a list of workspace-relative paths`, node.offset);
    return (node.children ?? []).map((entry, i) => {
      const problem = entry.type === 'string' ? (pathProblem(entry.value as string) ?? check?.(normalizePath(entry.value as string))) : `expected a path (a string), got ${text.slice(entry.offset, entry.offset + entry.length)}`;
      if (problem) throw fail(`"${key}" entry ${i + 1}: ${problem}`, entry.offset);
      return normalizePath(entry.value as string);
    });
  };
  const overrides = { include: [...new Set(list('include'))], exclude: [...new Set(list('exclude'))] };
  const both = overrides.include.find((p) => overrides.exclude.includes(p));
  const clash = both !== undefined ? findNodeAtLocation(tree, ['exclude'])?.children?.find((n) => normalizePath(n.value as string) === both) : undefined;
  if (both !== undefined) throw fail(`"${both}" is both included and excluded: keep it in one list`, clash?.offset ?? 0);
  return overrides;
}

/** Why a path cannot be an override (absolute, leaving the workspace, empty), or undefined when it can. */
export function pathProblem(p: string): string | undefined {
  const rel = p.replace(/\\/g, '/').trim();
  if (rel === '') return 'an empty path';
  if (rel.startsWith('/') || /^[A-Za-z]:\//.test(rel)) return `"${p}" is absolute: use a path relative to the workspace`;
  if (rel.split('/').includes('..')) return `"${p}" leads outside the workspace`;
  return undefined;
}

export function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').trim().replace(/^(\.\/)+/, '');
}

/** Read `.context/overrides.json`: none when absent; a FIFO or device is skipped (warned), never opened. */
export function readOverridesFile(root: string): { overrides: Overrides; warnings: Warning[] } {
  const file = path.join(root, OVERRIDES_FILE);
  const kind = checkInputFile(file, { shown: OVERRIDES_FILE, label: OVERRIDES_FILE, what: 'an overrides file (JSON)', unused: 'no overrides read' }, { root });
  if (kind !== 'file') return { overrides: emptyOverrides(), warnings: kind === 'absent' ? [] : [kind] };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read overrides file: ${fsReason(e)}`, OVERRIDES_FILE);
  }
  return { overrides: parseOverrides(text.replace(/^\uFEFF/, ''), OVERRIDES_FILE, (p) => entryProblem(root, p)), warnings: [] };
}

/**
 * An entry that exists must be what it says through the workspace guard (sources/guard.ts): not a link leading
 * outside, not a secret file, not a FIFO or device. One that does not exist (yet) is kept: it names nothing.
 */
function entryProblem(root: string, p: string): string | undefined {
  const d = resolveInWorkspace(p.replace(/\/+$/, '') || '.', { root, expect: 'any', mayBeMissing: true });
  return d.ok ? undefined : `"${p}" ${d.why}`;
}

/** Write the overrides; with nothing left in them the file is removed, never left holding empty lists. */
export function writeOverridesFile(root: string, overrides: Overrides): void {
  const file = path.join(root, OVERRIDES_FILE);
  // Through the workspace guard: not through a link (`.context` linked elsewhere), a FIFO or a hard-linked file.
  const d = resolveInWorkspace(OVERRIDES_FILE, { root, access: 'write', mayBeMissing: true });
  if (!d.ok) throw new InputError(d.why, OVERRIDES_FILE);
  if (overrides.include.length === 0 && overrides.exclude.length === 0) {
    fs.rmSync(file, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole, then renamed over it: a reader at the same moment (ctxctl, the editor's file watcher) sees the
  // old file or the new one, never an empty or half-written one.
  const text = JSON.stringify({ version: 1, include: overrides.include, exclude: overrides.exclude }, null, 2) + '\n';
  writeWhole(file, text, (id) => `.overrides-${id}.tmp`);
}

/** Set (or with `undefined`, clear) the override of one path: a path is in one list at most. */
export function setOverride(overrides: Overrides, p: string, action: OverrideAction | undefined): Overrides {
  const rel = normalizePath(p);
  const problem = pathProblem(rel);
  if (problem) throw new InputError(`cannot override: ${problem}`);
  const out = { include: overrides.include.filter((x) => x !== rel), exclude: overrides.exclude.filter((x) => x !== rel) };
  if (action) out[action].push(rel);
  return out;
}

/** The file's overrides with the call's own on top (`ctxctl preview --include/--exclude`): the call wins for a path. */
export function mergeOverrides(base: Overrides, top: Partial<Overrides>): Overrides {
  let out = base;
  for (const p of top.include ?? []) out = setOverride(out, p, 'include');
  for (const p of top.exclude ?? []) out = setOverride(out, p, 'exclude');
  return out;
}

/** The override that applies to a workspace path, if any (an exact path, or a folder ending in `/` above it). */
export function overrideFor(overrides: Overrides | undefined, source: string): OverrideAction | undefined {
  if (!overrides) return undefined;
  const hit = (list: string[]) => list.some((p) => p === source || (p.endsWith('/') && source.startsWith(p)));
  return hit(overrides.exclude) ? 'exclude' : hit(overrides.include) ? 'include' : undefined;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
