import { num } from '../report/trace';
import type { Tokenizer } from '../tokens';

/**
 * A read-only tool's answer over its cap (the tool-results zone cap), cut instead of offloaded: the MCP tools are
 * annotated read-only, so they write nothing, no offload file either. The head is kept whole line by line, and a
 * notice says how much was left out and how to narrow the call. Pure.
 */
export interface CutAnswer {
  text: string;
  cut: boolean;
  keptLines: number;
  totalLines: number;
  originalTokens: number;
}

export function cutAnswer(text: string, maxTokens: number, tokenizer: Tokenizer, tool: string): CutAnswer {
  const lines = text.split('\n');
  const originalTokens = tokenizer.count(text);
  if (originalTokens <= maxTokens) return { text, cut: false, keptLines: lines.length, totalLines: lines.length, originalTokens };
  const notice = (kept: number) => `[cut: ${num(kept)} of ${num(lines.length)} lines kept (${num(originalTokens)} tokens in all, cap ${num(maxTokens)}); nothing was stored. Narrow the call: ${NARROW[tool] ?? 'ask for less'}]`;
  // Lines are added while the head and the notice fit.
  let kept = 0;
  let used = tokenizer.count(notice(lines.length)) + 1;
  while (kept < lines.length) {
    const t = tokenizer.count(lines[kept]) + 1;
    if (used + t > maxTokens) break;
    used += t;
    kept++;
  }
  return { text: [...lines.slice(0, kept), notice(kept)].join('\n'), cut: true, keptLines: kept, totalLines: lines.length, originalTokens };
}

const NARROW: Record<string, string> = {
  read_document: 'read one section with "heading"',
  search_workspace: 'a narrower pattern or a "glob"',
  inspect_offloaded: '"grep" with a narrower pattern, or "head" with fewer lines',
};
