import { num } from '../report/trace';
import type { ToolAnswer } from './workspace-tools';

export type McpClient = 'claude-code' | 'codex' | 'other';

export function mcpClientOf(name: string | undefined): McpClient {
  if (!name) return 'other';
  if (name === 'claude-code' || /^claude[- ]code/i.test(name)) return 'claude-code';
  if (/codex/i.test(name)) return 'codex';
  return 'other';
}

export interface AnswerLimit {
  client: McpClient;
  maxChars: number;
  /** In the answer's note: "Codex keeps 11 000 characters of a tool answer (tool_output_token_limit)". */
  label: string;
}

/** Kept below the 11 959 characters Codex kept at its default limit, with room for the note line. */
export const CODEX_DEFAULT_ANSWER_CHARS = 11_000;
/** Below Claude Code's 50 000 characters, above which an MCP answer is saved to a file. */
export const CLAUDE_CODE_ANSWER_CHARS = 45_000;
/** The `tool_output_token_limit` setup writes when the Codex config has none. */
export const CODEX_TOOL_OUTPUT_TOKENS = 12_000;
/** Characters per token the server assumes of Codex's limit (fewer than English's ~4, so code and markup fit). */
const CHARS_PER_TOKEN = 3;

/** The answer size matching a Codex `tool_output_token_limit`. */
export function codexAnswerChars(toolOutputTokens: number): number {
  return Math.floor(toolOutputTokens * CHARS_PER_TOKEN);
}

/**
 * How much of an MCP tool answer each client keeps, in characters, and `assemble_context` sized to it. The client
 * is known from the MCP handshake (`clientInfo.name`: Claude Code sends "claude-code", Codex "codex-mcp-client").
 *
 * - Codex cuts a tool answer above its `tool_output_token_limit` (config.toml, top level): at its default, a
 *   41 348-character `assemble_context` answer arrived as 11 959 characters (issue 28), so without a limit given the
 *   server aims at CODEX_DEFAULT_ANSWER_CHARS. `ctxctl setup codex` writes the limit and passes the matching
 *   `--answer-chars` (codexAnswerChars) to the server.
 * - Claude Code keeps up to MAX_MCP_OUTPUT_TOKENS (25 000 by default) and saves an answer above 50 000 characters to
 *   a file, leaving the model a path: the server aims below that.
 * Pure.
 */

/** The limit for a client: `--answer-chars` when given, else the client's own; none for another client. */
export function answerLimit(client: McpClient, flagChars?: number): AnswerLimit | undefined {
  if (flagChars !== undefined) return { client, maxChars: flagChars, label: `this server keeps tool answers to ${num(flagChars)} characters (--answer-chars)` };
  if (client === 'codex') return { client, maxChars: CODEX_DEFAULT_ANSWER_CHARS, label: `Codex keeps about ${num(CODEX_DEFAULT_ANSWER_CHARS)} characters of a tool answer at its default tool_output_token_limit` };
  if (client === 'claude-code') return { client, maxChars: CLAUDE_CODE_ANSWER_CHARS, label: `Claude Code saves a tool answer above 50 000 characters to a file` };
  return undefined;
}

/** Attempts at a smaller budget before the answer is cut. */
const ATTEMPTS = 4;
/** Below this budget a smaller assembly is not tried: the answer is cut instead. */
const MIN_BUDGET = 400;

/**
 * `run(maxInput)` assembles at a budget (undefined: the call's own). When the answer is longer than the limit, the
 * assembly is redone at a budget scaled by the overshoot, until it fits, and a note line says so; if it still does
 * not fit, the end of the answer is cut with a notice. What is sent is never over the limit.
 */
export function sizedAssembly(run: (maxInput?: number) => ToolAnswer, requested: number | undefined, limit: AnswerLimit | undefined): ToolAnswer {
  const first = run(requested);
  if (!limit || first.isError || first.text.length <= limit.maxChars) return first;
  const from = first.manifest?.budget.max_input;
  let answer = first;
  for (let i = 0; i < ATTEMPTS && answer.manifest; i++) {
    const current = answer.manifest.budget.max_input;
    const next = Math.floor((current * (limit.maxChars - NOTE_ROOM)) / answer.text.length * 0.9);
    if (next < MIN_BUDGET || next >= current) break;
    const again = run(next);
    if (again.isError) break;
    answer = again;
    const note = `[Context Control] Sized for the client: ${limit.label}; assembled at max_input ${num(next)} instead of ${num(from ?? current)} tokens (${num(first.text.length)} characters at first).`;
    if (answer.text.length + note.length + 1 <= limit.maxChars) return { ...answer, text: `${note}\n${answer.text}` };
  }
  // The smallest budget still too long: the trace's rows go before any of the context (the manifest keeps them all).
  const short = answer.short?.() ?? { text: answer.text, left: 0 };
  if (short.left > 0) {
    const at = answer.manifest?.budget.max_input;
    const sized = at !== undefined && at !== from ? `; assembled at max_input ${num(at)} instead of ${num(from ?? at)} tokens` : '';
    const note = `[Context Control] Sized for the client: ${limit.label}; the trace keeps its budget and its final request (${num(short.left)} rows left out, all in the manifest)${sized} (${num(first.text.length)} characters at first).`;
    if (short.text.length + note.length + 1 <= limit.maxChars) return { ...answer, text: `${note}\n${short.text}` };
  }
  return { ...answer, text: cutChars(answer.text, limit) };
}

const NOTE_ROOM = 400;

/** The head of a text, whole lines, with a notice; at most `limit.maxChars` characters in all. */
export function cutChars(text: string, limit: AnswerLimit): string {
  const lines = text.split('\n');
  const notice = (kept: number) => `[cut: ${num(kept)} of ${num(lines.length)} lines kept (${num(text.length)} characters in all); ${limit.label}. Ask with a smaller max_input, or read what you need with read_document]`;
  let used = notice(lines.length).length;
  let kept = 0;
  while (kept < lines.length && used + lines[kept].length + 1 <= limit.maxChars) used += lines[kept++].length + 1;
  return [...lines.slice(0, kept), notice(kept)].join('\n');
}
