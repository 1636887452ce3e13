import { applyEdits, modify, parseTree, findNodeAtLocation, getNodeValue, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { parse as parseToml, TomlError } from 'smol-toml';
import { InputError } from '../errors';
import { MAX_JSON_DEPTH, tooDeepAt } from '../json-depth';
import { codexAnswerChars, CODEX_TOOL_OUTPUT_TOKENS } from './mcp-answer-size';

/**
 * The entries `ctxctl setup` adds to an agent's configuration, and the merges that add them. A merge keeps every
 * byte it does not need to change (comments and formatting included: JSONC edits, TOML appended), never removes or
 * rewrites another entry, and refuses a file it cannot parse with its line and column, before anything is written.
 */

export type Agent = 'claude-code' | 'cursor' | 'vscode' | 'codex';
export const AGENTS: Agent[] = ['claude-code', 'cursor', 'vscode', 'codex'];
export const SERVER_NAME = 'context-control';
export const SESSION_START_MATCHER = 'startup|resume|clear|compact';

/** How to start ctxctl: `ctxctl`, or e.g. `node /abs/dist/cli.js`. */
export interface Launch {
  command: string;
  args: string[];
}

export interface Merge {
  text: string;
  /** What was added or already there, one line each. */
  notes: string[];
  changed: boolean;
}

export const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };
/**
 * jsonc-parser's `modify` formats around its edit in time that grows faster than the length of a long line: above
 * this size an edit is made in place instead (the member inserted or replaced on its line, unformatted), linear.
 */
const FORMATTED_EDIT_MAX_CHARS = 64 * 1024;

/** The hook's command line; Codex's names its client (`hook codex`), so the hook sizes and de-duplicates for it. */
export function hookCommandLine(launch: Launch, agent: 'claude-code' | 'codex' = 'claude-code'): string {
  return [launch.command, ...launch.args, 'hook', agent].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The MCP server entry, in the shape of the agent's file. */
export function serverEntry(agent: Agent, launch: Launch): Record<string, unknown> {
  const args = [...launch.args, 'mcp'];
  switch (agent) {
    case 'claude-code':
      return { type: 'stdio', command: launch.command, args };
    case 'cursor':
      return { command: launch.command, args: [...args, '--workspace', '${workspaceFolder}'] };
    case 'vscode':
      return { type: 'stdio', command: launch.command, args: [...args, '--workspace', '${workspaceFolder}'] };
    case 'codex':
      // Codex cuts a tool answer above its tool_output_token_limit: the server sizes assemble_context to it.
      return { command: launch.command, args: [...args, '--answer-chars', String(codexAnswerChars(CODEX_TOOL_OUTPUT_TOKENS))] };
  }
}

export function sessionStartGroup(launch: Launch): Record<string, unknown> {
  return sessionStartGroupFor(hookCommandLine(launch), SESSION_START_MATCHER);
}

/** Parse JSON with comments; a syntax error or a non-object root is an InputError at its line and column. */
export function jsonTree(text: string, file: string) {
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    const { line, column } = position(text, deep);
    throw new InputError(`nested deeper than ${MAX_JSON_DEPTH} levels; nothing written`, file, line, column);
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const { line, column } = position(text, errors[0].offset);
    throw new InputError(`invalid JSON: ${printParseErrorCode(errors[0].error)}; nothing written`, file, line, column);
  }
  if (!tree || tree.type !== 'object') throw new InputError('the file must hold a JSON object; nothing written', file, 1, 1);
  return tree;
}

export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Set `key.name` (an object of servers) to `entry`, unless an equal entry is there. Other servers are untouched. */
export function mergeServer(existing: string | undefined, file: string, key: 'mcpServers' | 'servers', entry: Record<string, unknown>): Merge {
  if (existing === undefined || existing.trim() === '') {
    return { text: JSON.stringify({ [key]: { [SERVER_NAME]: entry } }, null, 2) + '\n', notes: [`${file}: added ${key}.${SERVER_NAME}`], changed: true };
  }
  const tree = jsonTree(existing, file);
  const servers = findNodeAtLocation(tree, [key]);
  if (servers && servers.type !== 'object') {
    const { line, column } = position(existing, servers.offset);
    throw new InputError(`"${key}" must be an object; nothing written`, file, line, column);
  }
  const current = findNodeAtLocation(tree, [key, SERVER_NAME]);
  if (current && JSON.stringify(getNodeValue(current)) === JSON.stringify(entry)) {
    return { text: existing, notes: [`${file}: ${key}.${SERVER_NAME} is already set up`], changed: false };
  }
  const text = current
    ? existing.length > FORMATTED_EDIT_MAX_CHARS
      ? `${existing.slice(0, current.offset)}${JSON.stringify(entry)}${existing.slice(current.offset + current.length)}`
      : applyEdits(existing, modify(existing, [key, SERVER_NAME], entry, FORMAT))
    : servers
      ? appendMember(existing, servers, `${JSON.stringify(SERVER_NAME)}: ${JSON.stringify(entry, null, 2)}`, [key, SERVER_NAME], entry)
      : appendMember(existing, tree, `${JSON.stringify(key)}: ${JSON.stringify({ [SERVER_NAME]: entry }, null, 2)}`, [key], { [SERVER_NAME]: entry });
  return { text, notes: [`${file}: ${current ? 'updated' : 'added'} ${key}.${SERVER_NAME}${current ? ' (its previous value is in the diff)' : ''}`], changed: true };
}

export function sessionStartGroupFor(command: string, matcher: string): Record<string, unknown> {
  return { matcher, hooks: [{ type: 'command', command, timeout: 30 }] };
}

/**
 * Add a hook group for `event` (SessionStart by default, or PreCompact) to a Claude Code settings file unless a hook
 * of that event already runs the same command.
 */
export function mergeClaudeHook(existing: string | undefined, file: string, launch: Launch, event: 'SessionStart' | 'PreCompact' = 'SessionStart'): Merge {
  const matcher = event === 'SessionStart' ? SESSION_START_MATCHER : PRE_COMPACT_MATCHER;
  const command = hookCommandLine(launch);
  const group = sessionStartGroupFor(command, matcher);
  const added = `${file}: added a ${event} hook (${matcher}) running ${command}`;
  if (existing === undefined || existing.trim() === '') {
    return { text: JSON.stringify({ hooks: { [event]: [group] } }, null, 2) + '\n', notes: [added], changed: true };
  }
  const tree = jsonTree(existing, file);
  for (const [where, type] of [[['hooks'], 'object'], [['hooks', event], 'array']] as const) {
    const node = findNodeAtLocation(tree, [...where]);
    if (node && node.type !== type) {
      const { line, column } = position(existing, node.offset);
      throw new InputError(`"${where.join('.')}" must be an ${type}; nothing written`, file, line, column);
    }
  }
  const groups = findNodeAtLocation(tree, ['hooks', event]);
  const present = ((groups ? getNodeValue(groups) : []) as unknown[]).some((g) => hooksOf(g).some((h) => h.command === command));
  if (present) return { text: existing, notes: [`${file}: a ${event} hook already runs ${command}`], changed: false };
  const hooks = findNodeAtLocation(tree, ['hooks']);
  const text = groups
    ? appendMember(existing, groups, JSON.stringify(group, null, 2), ['hooks', event, groups.children?.length ?? 0], group, true)
    : hooks
      ? appendMember(existing, hooks, `${JSON.stringify(event)}: ${JSON.stringify([group], null, 2)}`, ['hooks', event], [group])
      : appendMember(existing, tree, `"hooks": ${JSON.stringify({ [event]: [group] }, null, 2)}`, ['hooks'], { [event]: [group] });
  return { text, notes: [added], changed: true };
}

/** Claude Code's PreCompact matcher: a `/compact` and an automatic compaction. */
export const PRE_COMPACT_MATCHER = 'manual|auto';

/**
 * Add a member after the last one of an object or array, on its own line at its siblings' indentation, touching no
 * other byte (a comment after the last member stays where it is). An empty container, or a result that would not
 * parse, falls back to jsonc-parser's own edit.
 */
export function appendMember(text: string, container: JsonNode, rendered: string, jsonPath: (string | number)[], value: unknown, arrayInsertion = false): string {
  const fallback = () => (text.length > FORMATTED_EDIT_MAX_CHARS ? inlineMember(text, container, rendered) : applyEdits(text, modify(text, jsonPath, value, { ...FORMAT, isArrayInsertion: arrayInsertion })));
  const last = container.children?.at(-1);
  if (!last) return fallback();
  const end = last.offset + last.length;
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const nextLine = text.indexOf('\n', end);
  const lineEnd = nextLine < 0 ? text.length : nextLine;
  const close = container.offset + container.length - 1;
  if (close < lineEnd || !indent) return fallback();
  const comma = /^\s*,/.test(text.slice(end, lineEnd)) ? '' : ',';
  const member = rendered.split('\n').map((line, i) => (i === 0 ? line : indent + line)).join('\n');
  const out = `${text.slice(0, end)}${comma}${text.slice(end, lineEnd)}\n${indent}${member}${text.slice(lineEnd)}`;
  const errors: ParseError[] = [];
  parseTree(out, errors, { allowTrailingComma: true });
  return errors.length === 0 ? out : fallback();
}

/** The member inserted right after the container's last child (or its opening bracket), on the same line: linear in the text. */
function inlineMember(text: string, container: JsonNode, rendered: string): string {
  const last = container.children?.at(-1);
  const compact = rendered.replace(/\n\s*/g, ' ');
  if (!last) return `${text.slice(0, container.offset + 1)}${compact}${text.slice(container.offset + 1)}`;
  const end = last.offset + last.length;
  return `${text.slice(0, end)}, ${compact}${text.slice(end)}`;
}

function hooksOf(group: unknown): { command?: unknown }[] {
  const hooks = group && typeof group === 'object' ? (group as { hooks?: unknown }).hooks : undefined;
  return Array.isArray(hooks) ? hooks.filter((h): h is { command?: unknown } => !!h && typeof h === 'object') : [];
}

const tomlString = (s: string) => JSON.stringify(s);

export function parseCodex(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) throw new InputError(`invalid TOML: ${e.message.split('\n')[0]}; nothing written`, file, e.line, e.column);
    throw e;
  }
}

/**
 * The Codex config (TOML), the project's `.codex/config.toml` or the file given: `[mcp_servers.context-control]` and
 * a `[[hooks.SessionStart]]` group are appended when absent, and `tool_output_token_limit` (a top-level key, so it
 * goes first, above every table) is set when absent, so that the server's answers (`--answer-chars`) fit what Codex
 * keeps of a tool answer. Every existing byte stays. An existing `mcp_servers.context-control` that differs is left
 * as it is and reported (appending a second one would be invalid TOML). The result is parsed again before it is returned.
 */
export function mergeCodex(existing: string | undefined, file: string, launch: Launch): Merge {
  const before = existing ?? '';
  const parsed = parseCodex(before, file);
  const limit = typeof parsed.tool_output_token_limit === 'number' && parsed.tool_output_token_limit > 0 ? parsed.tool_output_token_limit : undefined;
  const base = serverEntry('codex', launch) as { command: string; args: string[] };
  const entry = { command: base.command, args: [...launch.args, 'mcp', '--answer-chars', String(codexAnswerChars(limit ?? CODEX_TOOL_OUTPUT_TOKENS))] };
  const command = hookCommandLine(launch, 'codex');
  const notes: string[] = [];
  const blocks: string[] = [];
  let head = '';
  if (limit === undefined) {
    head = `# Context Control (ctxctl setup codex): Codex cuts a tool answer above this many tokens; ctxctl mcp --answer-chars keeps to it\ntool_output_token_limit = ${CODEX_TOOL_OUTPUT_TOKENS}\n\n`;
    notes.push(`${file}: set tool_output_token_limit = ${CODEX_TOOL_OUTPUT_TOKENS} (Codex's default cut a 41 348-character assemble_context answer to 11 959)`);
  } else notes.push(`${file}: tool_output_token_limit is ${limit}: the server's answers are sized to it (--answer-chars ${codexAnswerChars(limit)})`);
  const servers = parsed.mcp_servers as Record<string, unknown> | undefined;
  const current = servers?.[SERVER_NAME] as Record<string, unknown> | undefined;
  if (!current) {
    blocks.push(`[mcp_servers.${SERVER_NAME}]\ncommand = ${tomlString(entry.command)}\nargs = [${entry.args.map(tomlString).join(', ')}]\n`);
    notes.push(`${file}: added mcp_servers.${SERVER_NAME}`);
  } else if (current.command === entry.command && JSON.stringify(current.args) === JSON.stringify(entry.args)) {
    notes.push(`${file}: mcp_servers.${SERVER_NAME} is already set up`);
  } else {
    notes.push(`${file}: mcp_servers.${SERVER_NAME} exists with another command; left as it is (edit it by hand to use ${[entry.command, ...entry.args].join(' ')})`);
  }
  const hooks = (parsed.hooks as Record<string, unknown> | undefined)?.SessionStart;
  if (Array.isArray(hooks) && hooks.some((g) => hooksOf(g).some((h) => h.command === command))) {
    notes.push(`${file}: a SessionStart hook already runs ${command}`);
  } else {
    blocks.push(`[[hooks.SessionStart]]\nmatcher = ${tomlString(SESSION_START_MATCHER)}\n\n[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = ${tomlString(command)}\ntimeout = 30\n`);
    notes.push(`${file}: added a SessionStart hook (${SESSION_START_MATCHER}) running ${command}`);
  }
  if (blocks.length === 0 && head === '') return { text: before, notes, changed: false };
  const separator = before === '' ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const text = blocks.length ? `${head}${before}${separator}# Context Control (ctxctl setup codex)\n${blocks.join('\n')}` : `${head}${before}`;
  try {
    parseToml(text);
  } catch (e) {
    throw new InputError(`cannot append to this file without breaking it (${(e as Error).message.split('\n')[0]}): add the entries by hand; nothing written`, file);
  }
  return { text, notes, changed: true };
}
