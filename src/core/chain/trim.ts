import type { Policy } from '../policy';
import type { ToolOutputFile } from '../sources/snapshot';
import { estimateTokensFromBytes, type Tokenizer } from '../tokens';
import { pickTrimmer } from '../trim/pick';
import type { Lines, TrimOptions } from '../trim/types';
import type { Block, Decision, StageResult } from '../types';
import { makeBlock } from './collect';

/** Up to this size the original is counted exactly for the record; above it, its tokens are an estimate. */
const EXACT_ORIGINAL_BYTES = 1 << 20;

export function trimOptions(policy: Policy, tokenizer: Tokenizer, maxTokens: number): TrimOptions {
  return {
    maxTokens,
    count: (t) => tokenizer.count(t),
    windowLines: policy.trim.log_window_lines,
    maxStackLines: policy.trim.max_stack_lines,
    headLines: policy.trim.command_head_lines,
    tailLines: policy.trim.command_tail_lines,
  };
}

function joinLines(lines: Lines): string {
  const out: string[] = [];
  for (const l of lines()) out.push(l);
  return out.join('\n');
}

/**
 * Trim each tool output to its share of the tool-results zone. Every trimmed result says so, with its figures and
 * a reference to where the full text is (the workspace file itself: it is referenced in place, not copied).
 */
export function trimToolOutputs(outputs: ToolOutputFile[], policy: Policy, tokenizer: Tokenizer): StageResult<Block[]> {
  const blocks: Block[] = [];
  const trimmed: Decision[] = [];
  const share = Math.floor(policy.zones.tool_results.max_tokens / Math.max(1, outputs.length));
  for (const output of outputs) {
    const estimate = estimateTokensFromBytes(output.size);
    const small = output.size <= EXACT_ORIGINAL_BYTES;
    const whole = small ? joinLines(output.lines) : undefined;
    const originalTokens = whole !== undefined ? tokenizer.count(whole) : estimate;
    if (whole !== undefined && originalTokens <= share) {
      const block = makeBlock(policy, 'tool_result', output.path, 'tool-output', whole, { format: output.format ?? 'text' });
      block.tokens = originalTokens;
      block.exact = true;
      blocks.push(block);
      continue;
    }
    const { trimmer, format } = pickTrimmer(output.path, output.format, output.lines);
    const result = trimmer(output.lines, trimOptions(policy, tokenizer, share));
    const tokens = tokenizer.count(result.text);
    const info = {
      trimmed: true as const,
      original_lines: result.originalLines,
      retained_lines: result.retainedLines,
      original_tokens: originalTokens,
      original_tokens_exact: whole !== undefined,
      tokens,
      reference: output.path,
      format,
    };
    const block = makeBlock(policy, 'tool_result', output.path, 'tool-output', result.text, { trim: info, format });
    block.tokens = tokens;
    block.exact = true;
    blocks.push(block);
    trimmed.push({ source: output.path, kind: 'tool_result', reason: result.note, ...info });
  }
  return { value: blocks, decisions: { trimmed } };
}

/** Trim one tool-result block again to a smaller budget (the first step of the enforce ladder). */
export function retrim(block: Block, maxTokens: number, policy: Policy, tokenizer: Tokenizer, lines: Lines): Block | undefined {
  const { trimmer, format } = pickTrimmer(block.source, block.meta.format, lines);
  const result = trimmer(lines, trimOptions(policy, tokenizer, maxTokens));
  const tokens = tokenizer.count(result.text);
  if (tokens >= block.tokens) return undefined;
  const previous = block.meta.trim;
  return {
    ...block,
    text: result.text,
    tokens,
    exact: true,
    meta: {
      ...block.meta,
      trim: {
        trimmed: true,
        original_lines: result.originalLines,
        retained_lines: result.retainedLines,
        original_tokens: previous?.original_tokens ?? block.tokens,
        original_tokens_exact: previous?.original_tokens_exact ?? true,
        tokens,
        reference: previous?.reference ?? block.source,
        format,
      },
    },
  };
}
