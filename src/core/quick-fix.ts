import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { QuickFix, TextEdit } from './errors';

/**
 * Quick fixes for the workspace's own settings files (policy, pins, overrides, checks), as plain text edits: the
 * parsers attach one to the error they throw (replace a key by the suggestion, clamp a number to its bound), and
 * `entryFixes` finds the entries of pins.json and overrides.json that name no workspace file (remove the entry).
 * Pure: the caller says which paths exist.
 */

/** Replace `text.slice(start, end)` by `value`, keeping the quotes the old text had (`"zone"` → `"zones"`). */
export function replaceFix(text: string, start: number, end: number, value: string, kind: QuickFix['kind'], title: string): QuickFix {
  const old = text.slice(start, end);
  const quote = /^["']/.exec(old)?.[0];
  return { kind, title, edits: [{ offset: start, length: end - start, text: quote ? `${quote}${value}${quote}` : value, expect: old }] };
}

/** A fix still applies to this text: every edit finds the text it replaces where it expects it. */
export function fixApplies(fix: QuickFix, text: string): boolean {
  return fix.edits.every((e) => text.slice(e.offset, e.offset + e.length) === e.expect);
}

/** The text with the fix applied (edits from the last to the first, so offsets stay valid). */
export function applyFix(fix: QuickFix, text: string): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  return out;
}

/** 1-based line and column of an offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** An entry of a JSON file naming a path that is not in the workspace, with the fix that removes it. */
export interface EntryFix {
  file: string;
  line: number;
  column: number;
  /** The entry's length in characters (the diagnostic's range). */
  length: number;
  message: string;
  fix: QuickFix;
}

export const PINS_JSON = '.context/pins.json';
export const OVERRIDES_JSON = '.context/overrides.json';

/** The edit that removes one array entry with its comma: from the previous entry's end, or up to the next one's start. */
function removal(text: string, list: JsonNode, i: number): TextEdit[] {
  const items = list.children ?? [];
  const entry = items[i];
  const prev = items[i - 1];
  const next = items[i + 1];
  const start = prev ? prev.offset + prev.length : entry.offset;
  const end = prev ? entry.offset + entry.length : next ? next.offset : entry.offset + entry.length;
  return [{ offset: start, length: end - start, text: '', expect: text.slice(start, end) }];
}

/**
 * The entries of `.context/pins.json` (`source`) and `.context/overrides.json` (`include`, `exclude`) that name a
 * path missing from the workspace: each one a problem at the entry with the fix that removes it. A text that does
 * not parse has none (its parse error is the problem).
 */
export function entryFixes(file: string, text: string, exists: (rel: string) => boolean): EntryFix[] {
  const tree = parseTree(text, [], { disallowComments: false, allowTrailingComma: true });
  if (!tree) return [];
  const out: EntryFix[] = [];
  const add = (node: JsonNode, list: JsonNode, i: number, value: string, what: string) => {
    const at = lineColumnAt(text, node.offset);
    out.push({ file, ...at, length: node.length, message: `${what} "${value}" is not a file or folder of this workspace: it has no effect`, fix: { kind: 'remove', title: `Remove "${value}" from ${file}`, edits: removal(text, list, i) } });
  };
  const clean = (p: string) => p.replace(/\\/g, '/').trim().replace(/^(\.\/)+/, '');
  if (file === PINS_JSON && tree.type === 'array') {
    (tree.children ?? []).forEach((entry, i) => {
      const source = findNodeAtLocation(entry, ['source']);
      if (source?.type === 'string' && typeof source.value === 'string' && source.value.trim() && !exists(clean(source.value))) add(source, tree, i, source.value, `pin ${i + 1}: source`);
    });
  }
  if (file === OVERRIDES_JSON && tree.type === 'object') {
    for (const key of ['include', 'exclude'] as const) {
      const list = findNodeAtLocation(tree, [key]);
      if (list?.type !== 'array') continue;
      (list.children ?? []).forEach((entry, i) => {
        if (entry.type === 'string' && typeof entry.value === 'string' && entry.value.trim() && !exists(clean(entry.value).replace(/\/$/, ''))) add(entry, list, i, entry.value, `${key} entry ${i + 1}:`);
      });
    }
  }
  return out;
}
