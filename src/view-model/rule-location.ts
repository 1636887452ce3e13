/**
 * Where Edit rule, Open and Open policy line put the cursor: the line and column of the rule itself, not the top of
 * its file. Pure over the texts and the snapshot's figures.
 */

/** 1-based, like an editor's status bar (Ln, Col). */
export interface Location {
  line: number;
  column: number;
}

/**
 * The policy entry that governs a built-in block: the kind in the `mandatory` list for the harness's blocks, the key
 * `index`, the envelope's `window`. Keys may be written as blocks (`window: 9000`) or in flow maps
 * (`envelope: { window: 9000 }`).
 */
const POLICY_ENTRY: Record<string, { key: string; item?: string }> = {
  'builtin:system': { key: 'mandatory', item: 'system_instructions' },
  'builtin:tools': { key: 'mandatory', item: 'tool_definitions' },
  'builtin:index': { key: 'index' },
  'builtin:envelope': { key: 'window' },
};

/** A YAML comment starts at a `#` after a space (or the line's start), outside quotes; good enough for keys. */
function code(line: string): string {
  const at = line.search(/(^|\s)#/);
  return at < 0 ? line : line.slice(0, at);
}

/** The first line (and the key's column) where `key:` is written as a key, block or flow style. */
function keyAt(lines: string[], key: string): Location | undefined {
  const re = new RegExp(`(^|[{,\\s])(${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})\\s*:`);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(code(lines[i]));
    if (m) return { line: i + 1, column: m.index + m[1].length + 1 };
  }
  return undefined;
}

/** Where a built-in block's policy entry is in the policy text; undefined when the policy does not set it. */
export function policyEntryAt(text: string, source: string): Location | undefined {
  const entry = POLICY_ENTRY[source] ?? { key: 'mandatory' };
  const lines = text.split(/\r?\n/);
  const key = keyAt(lines, entry.key);
  if (!key || !entry.item) return key;
  // The kind in the list: on the key's line (`[a, b]`) or on the `- item` lines below it.
  const word = new RegExp(`(^|[\\[,\\s-])${entry.item}(?=[\\s,\\]]|$)`);
  const first = code(lines[key.line - 1]).slice(key.column - 1 + entry.key.length);
  const same = word.exec(first);
  if (same) return { line: key.line, column: key.column + entry.key.length + same.index + same[1].length };
  const indent = /^\s*/.exec(lines[key.line - 1])?.[0].length ?? 0;
  for (let i = key.line; i < lines.length; i++) {
    const l = code(lines[i]);
    if (!l.trim()) continue;
    if ((/^\s*/.exec(l)?.[0].length ?? 0) <= indent && !/^\s*-/.test(l)) break;
    const m = word.exec(l);
    if (m) return { line: i + 1, column: m.index + m[1].length + 1 };
  }
  return key;
}

/**
 * Where a source's rule starts in its file: a pinned range (`file#L12-L20`) at its first line; an instruction file
 * (AGENTS.md, CLAUDE.md, a Cursor or Copilot rule) at the first written line of its body, after its front matter
 * (`file`: the file's text as it is now, to step over blank lines). Undefined: the top of the file.
 */
export function ruleAt(source: string, instructions: { path: string; bodyLine: number }[] | undefined, file?: string): Location | undefined {
  const range = /#L(\d+)(?:-L?\d+)?$/.exec(source);
  if (range) return { line: Number(range[1]), column: 1 };
  const rule = instructions?.find((i) => i.path === source);
  if (!rule) return undefined;
  const lines = (file ?? '').split(/\r?\n/);
  for (let i = rule.bodyLine - 1; i < lines.length; i++) {
    if (lines[i].trim()) return { line: i + 1, column: (/^\s*/.exec(lines[i])?.[0].length ?? 0) + 1 };
  }
  return { line: rule.bodyLine, column: 1 };
}
