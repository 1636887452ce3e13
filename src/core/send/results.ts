import type { ToolCall } from '../chain/render';
import { decideOffload, preview } from '../chain/offload';
import { trimOptions } from '../chain/trim';
import type { OffloadStore } from '../offload/store';
import type { Policy } from '../policy';
import { linesOf } from '../sources/scan';
import { estimateTokens, type Tokenizer } from '../tokens';
import { pickTrimmer } from '../trim/pick';
import type { Decision, StageResult } from '../types';
import type { ToolOutcome } from './tools';

/**
 * A tool result goes back into the context through the same gates as any tool output (offload, then trim), with
 * the chain's own rule (`decideOffload`) and store: over `offload.per_result_tokens` it is offloaded (the full text
 * goes to the offload store; the context gets a notice, the path and a head/tail preview); when the results of one
 * step together exceed `offload.aggregate_tokens`, the largest go next until the rest fits; what stays inline and is
 * over the tool-results zone cap is trimmed, its full text stored and named. Every offload and trim is a decision.
 */

export interface AdmittedResult {
  call: ToolCall;
  outcome: ToolOutcome;
  /** The text the context gets. */
  text: string;
  tokens: number;
  originalTokens: number;
  offloaded?: string;
  trimmed?: { reference: string; original_lines: number; retained_lines: number };
}

/** Up to this size a result is counted exactly; above it, estimated (it is offloaded anyway). */
const EXACT_BYTES = 1 << 20;
/** Room left under the cap for the trim notice. */
const NOTICE_TOKENS = 64;

export interface AdmitContext {
  policy: Policy;
  tokenizer: Tokenizer;
  store: OffloadStore;
  /** A stored file's path as the context and the manifest write it (workspace-relative when inside it). */
  display: (abs: string) => string;
}

export function admitToolResults(results: { call: ToolCall; outcome: ToolOutcome }[], ctx: AdmitContext): StageResult<AdmittedResult[]> {
  const { policy, tokenizer } = ctx;
  const count = (t: string) => (Buffer.byteLength(t) <= EXACT_BYTES ? tokenizer.count(t) : estimateTokens(t));
  const measured = results.map((r) => count(r.outcome.text));
  const verdicts = new Map(decideOffload(results.map((r, i) => ({ source: r.call.id, tokens: measured[i] })), policy.offload).map((v) => [v.source, v]));
  const store = (r: { call: ToolCall; outcome: ToolOutcome }) => ctx.display(ctx.store.put(`${r.call.name}-${r.call.id}`, { text: r.outcome.text }).abs);
  const offloaded: Decision[] = [];
  const trimmed: Decision[] = [];
  const cap = policy.zones.tool_results.max_tokens;
  const admitted = results.map((r, i): AdmittedResult => {
    const { call, outcome } = r;
    const originalTokens = measured[i];
    const verdict = verdicts.get(call.id);
    if (verdict) {
      const where = store(r);
      const p = preview(() => linesOf(outcome.text), policy.offload.preview_chars);
      const chars = policy.offload.preview_chars;
      const text = [
        `[offloaded: the result of ${call.name} (${originalTokens} tokens) is not in this context (${verdict.reason}); the full result is at ${where}. ` +
          'The preview below is for navigation only: inspect the file with inspect_offloaded (head, grep, count, shape) rather than reading it whole.]',
        ...(p.whole ? ['preview (whole):', p.head] : [`preview, first ${chars} characters:`, p.head, `preview, last ${chars} characters:`, p.tail]),
      ].join('\n');
      offloaded.push({ source: outcome.source, kind: 'tool_result', reason: verdict.reason, rule: verdict.rule, tokens: originalTokens, path: where, tool: call.name, call_id: call.id });
      return { call, outcome, text, tokens: tokenizer.count(text), originalTokens, offloaded: where };
    }
    if (originalTokens <= cap) return { call, outcome, text: outcome.text, tokens: originalTokens, originalTokens };
    const where = store(r);
    const lines = () => linesOf(outcome.text);
    const { trimmer, format } = pickTrimmer(outcome.source, undefined, lines, call.name);
    const result = trimmer(lines, trimOptions(policy, tokenizer, Math.max(1, cap - NOTICE_TOKENS)));
    const text = `${result.text}\n[trimmed: ${result.retainedLines} of ${result.originalLines} lines kept; the full result is at ${where} (inspect_offloaded reads it)]`;
    const tokens = tokenizer.count(text);
    trimmed.push({
      source: outcome.source,
      kind: 'tool_result',
      reason: `tool result over the ${cap}-token tool-results cap: ${result.note}`,
      original_tokens: originalTokens,
      tokens,
      original_lines: result.originalLines,
      retained_lines: result.retainedLines,
      reference: where,
      format,
      tool: call.name,
      call_id: call.id,
    });
    return { call, outcome, text, tokens, originalTokens, trimmed: { reference: where, original_lines: result.originalLines, retained_lines: result.retainedLines } };
  });
  return { value: admitted, decisions: { offloaded, trimmed } };
}
