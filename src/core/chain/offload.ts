import type { ToolResult } from '../offload/results';
import type { OffloadStore } from '../offload/store';
import type { Policy } from '../policy';
import { estimateEncoding } from '../estimate';
import { estimateTokensFromBytes, type Tokenizer } from '../tokens';
import { joinLines } from '../trim/lines';
import type { Lines } from '../trim/types';
import type { Block, Decision, StageResult } from '../types';
import { makeBlock } from './collect';
import { evidenceDigest } from './offload-preview';
import { wrap } from './render';
import type { TrimInput } from './trim';

/**
 * Offload: an oversized result is kept whole on disk and the context gets a digest with its path. Tool results returned in one step are measured first. A result above per_result_tokens goes
 * whole to the offload store; if the results still inline sum above aggregate_tokens, the largest go next, one by
 * one, until the rest fits. An offloaded result leaves a notice, its path, the evidence digest of a test report or a
 * log (offload-preview.ts) and a head/tail preview in the context.
 * A result that is already a workspace file is referenced in place, not copied. The rest goes on to trimming.
 */

/** Up to this size a result is counted exactly for the decision; above it, its size is estimated from its bytes. */
export const EXACT_DECISION_BYTES = 256 * 1024;

export interface Measured {
  source: string;
  tokens: number;
}

export interface OffloadVerdict {
  source: string;
  rule: 'per_result' | 'aggregate';
  reason: string;
}

/** The decision alone, on token figures: per result first, then largest first until the inline rest fits. */
export function decideOffload(results: Measured[], limits: { per_result_tokens: number; aggregate_tokens: number }): OffloadVerdict[] {
  const verdicts: OffloadVerdict[] = [];
  const inline: Measured[] = [];
  for (const r of results) {
    if (r.tokens > limits.per_result_tokens) {
      verdicts.push({ source: r.source, rule: 'per_result', reason: `${r.tokens} tokens > per_result_tokens ${limits.per_result_tokens}` });
    } else inline.push(r);
  }
  let sum = inline.reduce((n, r) => n + r.tokens, 0);
  const largestFirst = inline.map((r, i) => ({ r, i })).sort((a, b) => b.r.tokens - a.r.tokens || a.i - b.i);
  for (const { r } of largestFirst) {
    if (sum <= limits.aggregate_tokens) break;
    verdicts.push({ source: r.source, rule: 'aggregate', reason: `returned together: ${sum} tokens > aggregate_tokens ${limits.aggregate_tokens}; offloaded largest first (${r.tokens} tokens)` });
    sum -= r.tokens;
  }
  return verdicts;
}

export interface Offloaded {
  /** Notice blocks (notice, path, preview), one per offloaded result. */
  blocks: Block[];
  /** Results left inline, for the trim stage; their full text is stored only if they get trimmed. */
  inline: TrimInput[];
  /** Tokens the notices take in the tool-results zone. */
  tokens: number;
}

export interface OffloadContext {
  policy: Policy;
  tokenizer: Tokenizer;
  /** Opened on first use: nothing touches the disk when nothing is offloaded. */
  store: () => OffloadStore;
  /** Store paths as written in the context and the manifest (workspace-relative when inside it). */
  display: (abs: string) => string;
}

export function offloadToolResults(results: ToolResult[], ctx: OffloadContext): StageResult<Offloaded> {
  const { policy, tokenizer } = ctx;
  const measured = results.map((r) => {
    if (r.size > EXACT_DECISION_BYTES) return { source: r.source, tokens: estimateTokensFromBytes(r.size, r.abs, estimateEncoding(tokenizer.encoding)), exact: false };
    return { source: r.source, tokens: tokenizer.count(joinLines(r.lines)), exact: true };
  });
  const verdicts = new Map(decideOffload(measured, policy.offload).map((v) => [v.source, v]));
  const stored = new Map<string, string>();
  const storedPath = (r: ToolResult): string => {
    if (r.workspacePath) return r.workspacePath;
    let p = stored.get(r.source);
    if (!p) {
      p = ctx.display(ctx.store().put(r.name, { file: r.abs }).abs);
      stored.set(r.source, p);
    }
    return p;
  };
  const blocks: Block[] = [];
  const inline: TrimInput[] = [];
  const offloaded: Decision[] = [];
  results.forEach((r, i) => {
    const verdict = verdicts.get(r.source);
    const { tokens, exact } = measured[i];
    if (!verdict) {
      inline.push({ path: r.source, size: r.size, format: r.format, lines: r.lines, tool: r.name, reference: () => storedPath(r) });
      return;
    }
    const where = storedPath(r);
    const digest = evidenceDigest(r, where, policy, tokenizer);
    const text = notice(r, tokens, exact, where, verdict.reason, policy.offload.preview_chars, digest);
    const block = makeBlock(policy, 'tool_result', r.source, 'tool-output', text, { offload: { path: where, tokens }, format: r.format });
    block.tokens = tokenizer.count(wrap(block));
    block.exact = true;
    blocks.push(block);
    offloaded.push({
      source: r.source,
      kind: 'tool_result',
      reason: verdict.reason,
      rule: verdict.rule,
      tokens,
      tokens_exact: exact,
      path: where,
      bytes: r.size,
      in_place: r.workspacePath !== undefined,
      context_tokens: block.tokens,
      ...(digest ? { preview: `evidence digest within offload.preview_tokens ${policy.offload.preview_tokens ?? 600}: ${digest.note}` } : {}),
    });
  });
  return { value: { blocks, inline, tokens: blocks.reduce((n, b) => n + b.tokens, 0) }, decisions: { offloaded } };
}

/** The first and last `chars` characters, read in one streaming pass. */
export function preview(lines: Lines, chars: number): { head: string; tail: string; whole: boolean } {
  let head = '';
  let tail = '';
  let length = 0;
  for (const line of lines()) {
    const piece = length === 0 ? line : `\n${line}`;
    length += piece.length;
    if (head.length < chars) head += piece.slice(0, chars - head.length);
    tail = (tail + piece).slice(-chars);
  }
  return { head, tail, whole: length <= chars };
}

function notice(r: ToolResult, tokens: number, exact: boolean, where: string, reason: string, chars: number, digest?: { text: string; note: string }): string {
  const p = preview(r.lines, chars);
  const size = `${exact ? '' : '~'}${tokens} tokens`;
  const place = r.workspacePath ? `it is the workspace file ${where}` : `the full result is at ${where}`;
  const lines = [
    `[offloaded: the result of ${r.name} (${size}, ${r.size} bytes) is not in this context (${reason}); ${place}. ` +
      'The preview below is for navigation only: inspect the file with inspect_offloaded (head, grep with context, count, JSON shape) rather than reading it whole.]',
  ];
  if (digest) lines.push(`evidence digest (${digest.note}):`, digest.text);
  if (p.whole) lines.push('preview (whole):', p.head);
  else lines.push(`preview, first ${chars} characters:`, p.head, `preview, last ${chars} characters:`, p.tail);
  return lines.join('\n');
}
