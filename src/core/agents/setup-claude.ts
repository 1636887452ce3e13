import { applyEdits, findNodeAtLocation, getNodeValue, modify } from 'jsonc-parser';
import { InputError } from '../errors';
import { toolsOn } from '../tool-registry';
import { FORMAT, jsonTree, mergeClaudeHook, position, SERVER_NAME, type Launch, type Merge } from './setup-config';

/**
 * What `ctxctl setup claude-code` merges into `.claude/settings.json` besides the SessionStart hook (issue 28):
 * - `permissions.allow`: the read-only MCP tools, as Claude Code names them (`mcp__context-control__assemble_context`),
 *   so `claude -p` does not deny them and the UI does not ask each time;
 * - `enabledMcpjsonServers`: the project's `.mcp.json` server, approved;
 * - a PreCompact hook (`/compact` and automatic compaction get the pins and the structured summary);
 * - `statusLine`: `ctxctl statusline claude-code`, unless another status line is set (left as it is, reported).
 * Each step keeps every other byte (JSONC edits) and adds only what is missing.
 */

/** The MCP tools that only read (annotated readOnlyHint): the ones setup allows. */
/** The MCP server's tools, as the registry declares them: every one is read-only. */
export const READ_ONLY_TOOLS = toolsOn('mcp').filter((t) => t.readOnly).map((t) => t.name);

export function allowRules(): string[] {
  return READ_ONLY_TOOLS.map((t) => `mcp__${SERVER_NAME}__${t}`);
}

export function statusLineCommand(launch: Launch): string {
  return [launch.command, ...launch.args, 'statusline', 'claude-code'].map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The values of `values` missing from the array at `at`, appended to it (created when absent). */
export function mergeArrayUnion(existing: string | undefined, file: string, at: string[], values: string[]): Merge {
  const text = existing === undefined || existing.trim() === '' ? '{}\n' : existing;
  const tree = jsonTree(text, file);
  const node = findNodeAtLocation(tree, at);
  if (node && node.type !== 'array') {
    const { line, column } = position(text, node.offset);
    throw new InputError(`"${at.join('.')}" must be an array; nothing written`, file, line, column);
  }
  for (let i = 1; i < at.length; i++) {
    const parent = findNodeAtLocation(tree, at.slice(0, i));
    if (parent && parent.type !== 'object') {
      const { line, column } = position(text, parent.offset);
      throw new InputError(`"${at.slice(0, i).join('.')}" must be an object; nothing written`, file, line, column);
    }
  }
  const have = new Set(((node ? getNodeValue(node) : []) as unknown[]).filter((v): v is string => typeof v === 'string'));
  const missing = values.filter((v) => !have.has(v));
  if (missing.length === 0) return { text: existing ?? '', notes: [`${file}: ${at.join('.')} already has ${values.join(', ')}`], changed: false };
  let out = text;
  if (!node) out = applyEdits(out, modify(out, at, missing, FORMAT));
  else for (const v of missing) out = applyEdits(out, modify(out, [...at, -1], v, { ...FORMAT, isArrayInsertion: true }));
  return { text: out, notes: [`${file}: added ${missing.join(', ')} to ${at.join('.')}`], changed: true };
}

/** `statusLine` set to our command, unless one is set already (then left as it is, and said). */
export function mergeStatusLine(existing: string | undefined, file: string, launch: Launch): Merge {
  const text = existing === undefined || existing.trim() === '' ? '{}\n' : existing;
  const tree = jsonTree(text, file);
  const command = statusLineCommand(launch);
  const node = findNodeAtLocation(tree, ['statusLine']);
  if (node) {
    const value = getNodeValue(node) as { command?: unknown } | undefined;
    if (value && typeof value === 'object' && value.command === command) return { text: existing ?? '', notes: [`${file}: statusLine already runs ${command}`], changed: false };
    return { text: existing ?? '', notes: [`${file}: statusLine is set to another command; left as it is (set it to ${command} by hand to see the context use)`], changed: false };
  }
  const out = applyEdits(text, modify(text, ['statusLine'], { type: 'command', command, padding: 0 }, FORMAT));
  return { text: out, notes: [`${file}: added statusLine running ${command}`], changed: true };
}

/** Every step of the Claude Code settings, in order, over the same text. */
export function mergeClaudeSettings(existing: string | undefined, file: string, launch: Launch): Merge {
  const steps: ((text: string | undefined) => Merge)[] = [
    (t) => mergeClaudeHook(t, file, launch, 'SessionStart'),
    (t) => mergeClaudeHook(t, file, launch, 'PreCompact'),
    (t) => mergeArrayUnion(t, file, ['permissions', 'allow'], allowRules()),
    (t) => mergeArrayUnion(t, file, ['enabledMcpjsonServers'], [SERVER_NAME]),
    (t) => mergeStatusLine(t, file, launch),
  ];
  let text = existing;
  const notes: string[] = [];
  let changed = false;
  for (const step of steps) {
    const r = step(text);
    notes.push(...r.notes);
    if (r.changed) {
      changed = true;
      text = r.text;
    }
  }
  return { text: text ?? '', notes, changed };
}

/**
 * A skill file (SKILL.md) installed by setup from `integrations/`: written when absent, left as it is when it
 * differs (a skill the user edited is theirs; the note says where the shipped one is).
 */
export function mergeSkill(existing: string | undefined, file: string, shipped: string, from: string): Merge {
  if (existing === shipped) return { text: existing, notes: [`${file}: the context-control skill is already installed`], changed: false };
  if (existing !== undefined) return { text: existing, notes: [`${file}: a different skill is there; left as it is (the shipped one is ${from})`], changed: false };
  return { text: shipped, notes: [`${file}: installed the context-control skill (from ${from}): it tells the agent when to call which tool`], changed: true };
}
