import type { Policy } from '../policy';
import type { ToolOutputFile } from '../sources/snapshot';
import { estimateEncoding } from '../estimate';
import { countUpTo, estimateTokensFromBytes, type Tokenizer } from '../tokens';
import { estimateBySample } from '../tokens-sample';
import { countRedactions } from '../sources/secrets';
import { pickTrimmer, type FormatSource, type TrimFormat } from '../trim/pick';
import { joinLines } from '../trim/lines';
import { templateRowsText } from '../trim/log';
import type { Lines, TrimOptions, TrimOutput } from '../trim/types';
import type { Block, Decision, StageResult, TrimInfo } from '../types';
import { detectDialect } from '../trim/dialect';
import { evidenceWeight, measureEvidence, type Evidence } from '../trim/evidence';
import { makeBlock, priorityFor } from './collect';
import { GLANCE_TOKENS, shareZone } from './trim-share';
import { Memo, policyKey, stampKey, trimKey } from './trim-cache';
import { escapeContent, wrap } from './render';

/** Tokens of one compact template row and the short left-out line. */
const ROW_FLOOR_TOKENS = 55;

/** Per file version, kept while the process lives (trim-cache.ts): the worker re-trims only what changed. */
export const evidenceCache = new Memo<Evidence>();
export const trimCache = new Memo<{ result: TrimOutput; format: TrimFormat; how: FormatSource; dialect: ReturnType<typeof detectDialect> }>();

/** Up to this size an output is read whole (it may be kept whole); above it, its tokens are estimated from its size. */
const WHOLE_BYTES = 1 << 20;
/**
 * Up to this size a trimmed output's original is counted exactly for the record; above it, only what can be sent
 * is counted: its original tokens are estimated from an exactly counted sample (`estimateBySample`), flagged `~`.
 */
export const EXACT_ORIGINAL_BYTES = 64 * 1024;

/** A tool output to trim: a workspace file, or a tool result returned in this step and kept inline by offload. */
export interface TrimInput extends ToolOutputFile {
  /** The tool that returned it, a hint for the format (`run_tests`, `read_logs`, `shell`). */
  tool?: string;
  /** Where the full text can be read, resolved only when the result is trimmed (stores it if need be). */
  reference?: () => string;
}

/** Trimmers count what the request will carry: the text as escaped inside its <tool-output> tag. */
export function trimOptions(policy: Policy, tokenizer: Tokenizer, maxTokens: number, reference?: string): TrimOptions {
  return {
    reference,
    maxTokens,
    count: (t, limit) => countUpTo(tokenizer, escapeContent(t), limit ?? Infinity),
    windowLines: policy.trim.log_window_lines,
    maxStackLines: policy.trim.max_stack_lines,
    headLines: policy.trim.command_head_lines,
    tailLines: policy.trim.command_tail_lines,
    maxLineChars: policy.trim.max_line_chars,
    jsonRecords: policy.trim.json_records,
  };
}

/** Tokens the <tool-output> tag and the trim notice add around a trimmed text (figures at their widest). */
function wrapOverhead(policy: Policy, tokenizer: Tokenizer, source: string, wide: number, reference: string): number {
  const n = Math.max(1, wide);
  const trim: TrimInfo = { trimmed: true, original_lines: n, retained_lines: n, original_tokens: n, original_tokens_exact: false, tokens: 0, reference, format: 'command' };
  return tokenizer.count(wrap(makeBlock(policy, 'tool_result', source, 'tool-output', '', { trim }))) + 2;
}

/**
 * Trim each tool output to its share of the tool-results zone (what offload notices left of it), shared by evidence
 * (trim-share.ts): outputs without errors or warnings get a glance, the others a share by evidence and priority. Every trimmed
 * result says so, with its figures and a reference to where the full text is: the workspace file itself
 * (referenced in place, not copied) or the offload store. Block tokens are those of the wrapped block.
 */
export function trimToolOutputs(outputs: TrimInput[], policy: Policy, tokenizer: Tokenizer, reserved = 0): StageResult<Block[]> {
  const blocks: Block[] = [];
  const trimmed: Decision[] = [];
  const room = Math.max(0, policy.zones.tool_results.max_tokens - reserved);
  // Measure first: the evidence of all (one streaming pass each), then the whole text of the small ones, counted
  // only up to the zone (an output over the zone is trimmed whatever its exact size).
  const evidence = outputs.map((output) => evidenceCache.get(stampKey(output), () => measureEvidence(output.lines)));
  const withEvidence = evidence.filter((e) => e.errorLines + e.warningLines > 0).length;
  const floor = wrapOverhead(policy, tokenizer, 'x'.repeat(24), 1 << 24, 'x'.repeat(24)) + ROW_FLOOR_TOKENS;
  // trim.evidence_floor (default on): the zone grows, if it must, so each output with evidence shows its most
  // important template; enforce still keeps the whole request under max_input.
  const needed = withEvidence * floor + (outputs.length - withEvidence) * GLANCE_TOKENS;
  const grown = policy.trim.evidence_floor !== false && needed > room ? needed : room;
  const measured = outputs.map((output, i) => {
    const whole = output.size <= WHOLE_BYTES ? joinLines(output.lines) : undefined;
    let block: Block | undefined;
    if (whole !== undefined) {
      block = makeBlock(policy, 'tool_result', output.path, 'tool-output', whole, { format: output.format ?? 'text' });
      // Exact when it is at most the zone (the only case where it can be kept whole); else some number above it.
      block.tokens = countUpTo(tokenizer, wrap(block), grown);
      block.exact = true;
    }
    // A log's rows come first in the share (trim-share.ts `need`): every template's row, counted as it is sent;
    // only when outputs with evidence share the zone (alone, an output has all of it).
    const rows = withEvidence > 1 && evidence[i].errorLines + evidence[i].warningLines > 0 && (!block || block.tokens > room) && pickTrimmer(output.path, output.format, output.lines, output.tool).format === 'log' ? templateRowsText(output.lines, policy.trim.max_line_chars) : undefined;
    const need = rows === undefined ? undefined : countUpTo(tokenizer, escapeContent(rows), grown) + wrapOverhead(policy, tokenizer, output.path, output.size, output.path);
    return { whole, block, evidence: evidence[i], priority: Math.max(1, priorityFor(policy, output.path, 'tool_result')), need };
  });
  const timed = measured.map((m, i) => ({ i, t: m.evidence.firstTime })).filter((x) => x.t !== undefined).sort((a, b) => a.t! - b.t!);
  const earliest = new Map(timed.map((x, rank) => [x.i, rank]));
  const warnings: { source: string; message: string }[] = [];
  if (grown > room) {
    warnings.push({ source: 'zones.tool_results', message: `tool-results zone grown from ${room} to ${grown} tokens so that each of the ${withEvidence} outputs with errors or warnings shows its most important template (trim.evidence_floor: true; set it to false to keep the cap)` });
  }
  const shares = shareZone(
    grown,
    measured.map((m, i) => ({ weight: evidenceWeight(m.evidence, earliest.get(i)) * m.priority, priority: m.priority, demand: m.block?.tokens ?? Infinity, ...(m.need !== undefined ? { need: m.need } : {}) })),
    // The floor: the wrapper and notice of a trimmed output, plus one compact template row and the left-out line.
    floor,
  );
  outputs.forEach((output, i) => {
    const share = shares[i];
    const { whole, block: wholeBlock, evidence } = measured[i];
    if (wholeBlock && wholeBlock.tokens <= share) {
      blocks.push(wholeBlock);
      return;
    }
    // Counted whole once, for the record, only when it is trimmed and small (its wrapped text was counted up to the
    // zone); a larger one is estimated from a counted sample, a streamed one from its size.
    const exact = whole !== undefined && output.size <= EXACT_ORIGINAL_BYTES;
    const originalTokens = whole === undefined ? estimateTokensFromBytes(output.size, output.path, estimateEncoding(tokenizer.encoding)) : exact ? tokenizer.count(whole) : estimateBySample(tokenizer, whole).tokens;
    const reference = output.reference ? output.reference() : output.path;
    const budget = Math.max(1, share - wrapOverhead(policy, tokenizer, output.path, output.size, reference));
    const glance = evidence.errorLines + evidence.warningLines === 0 && share <= GLANCE_TOKENS;
    const key = trimKey(output, [share, budget, reference, glance, output.format ?? '', output.tool ?? '', policyKey(policy), tokenizer.encoding]);
    const { result, format, how, dialect } = trimCache.get(key, () => {
      const picked = pickTrimmer(output.path, output.format, output.lines, output.tool);
      const options = { ...trimOptions(policy, tokenizer, budget), reference, ...(glance ? { headLines: 3, tailLines: 3 } : {}) };
      return { result: picked.trimmer(output.lines, options), format: picked.format, how: picked.how, dialect: detectDialect(output.lines) };
    });
    const info: TrimInfo = {
      trimmed: true,
      original_lines: result.originalLines,
      retained_lines: result.retainedLines,
      original_tokens: originalTokens,
      original_tokens_exact: exact,
      tokens: 0,
      reference,
      format,
    };
    const block = makeBlock(policy, 'tool_result', output.path, 'tool-output', result.text, { trim: info, format });
    block.tokens = tokenizer.count(wrap(block));
    block.exact = true;
    info.tokens = block.tokens;
    blocks.push(block);
    const counts = result.templates ? { templates: result.templates } : {};
    trimmed.push({ source: output.path, kind: 'tool_result', reason: result.note, ...info, format_from: how, ...(dialect ? { dialect } : {}), share, evidence: evidenceFigures(evidence), ...counts });
  });
  // Secrets were redacted while reading (redactLines): say so, so nothing is removed silently.
  warnings.push(...blocks.filter((b) => countRedactions(b.text) > 0).map((b) => ({ source: b.source, message: `${countRedactions(b.text)} secret(s) redacted in the tool output: not sent` })));
  return { value: blocks, decisions: { trimmed, warnings } };
}

function evidenceFigures(e: Evidence): { error_lines: number; warning_lines: number; error_templates: number; warning_templates: number } {
  return { error_lines: e.errorLines, warning_lines: e.warningLines, error_templates: e.errorTemplates, warning_templates: e.warningTemplates };
}

/**
 * Trim one tool-result block again to a smaller budget (the first step of the enforce ladder). `reference` says
 * where the full text is when the block was kept whole so far (a returned result not yet stored).
 */
export function retrim(block: Block, maxTokens: number, policy: Policy, tokenizer: Tokenizer, lines: Lines, reference?: () => string): Block | undefined {
  // An offloaded result is already down to its notice and preview.
  if (block.meta.offload) return undefined;
  const { trimmer, format } = pickTrimmer(block.source, block.meta.format, lines);
  const previous = block.meta.trim;
  const where = previous?.reference ?? (reference ? reference() : block.source);
  const overhead = wrapOverhead(policy, tokenizer, block.source, Math.max(block.tokens, previous?.original_tokens ?? 0) * 8, where);
  const result = trimmer(lines, trimOptions(policy, tokenizer, Math.max(1, maxTokens - overhead), where));
  const trim: TrimInfo = {
    trimmed: true,
    original_lines: result.originalLines,
    retained_lines: result.retainedLines,
    original_tokens: previous?.original_tokens ?? block.tokens,
    original_tokens_exact: previous?.original_tokens_exact ?? true,
    tokens: 0,
    reference: where,
    format,
  };
  const next: Block = { ...block, text: result.text, exact: true, meta: { ...block.meta, trim, retrimNote: result.note } };
  next.tokens = tokenizer.count(wrap(next));
  trim.tokens = next.tokens;
  return next.tokens < block.tokens ? next : undefined;
}
