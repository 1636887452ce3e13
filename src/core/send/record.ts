import type { ToolCall } from '../chain/render';
import type { AttemptRecord } from '../providers/retry';
import type { StopReason } from '../providers/provider';
import { formatMs } from '../providers/errors';
import type { Manifest } from '../report/manifest';
import { num } from '../report/trace';
import type { Decision } from '../types';

/**
 * What a send adds to each call's manifest and trace: the provider, the attempts, whether the bytes sent were the
 * bytes counted, a rebuild under a smaller envelope, the tool results the request carries and what the model
 * answered. Computed from the request bytes, never from an estimate.
 */

export interface Rebuild {
  reason: string;
  max_input_before: number;
  max_input_after: number;
  provider_limit?: number;
  provider_count?: number;
}

export interface CarriedResult {
  tool: string;
  call_id: string;
  source: string;
  ok: boolean;
  /** The tokens of the full result, and of what the context got. */
  original_tokens: number;
  tokens: number;
  verdict: 'kept' | 'trimmed' | 'offloaded';
  path?: string;
}

export interface SendSection {
  provider: string;
  endpoint?: string;
  streaming: boolean;
  step: number;
  max_steps: number;
  /** false for dry-run: nothing left the machine. */
  sent: boolean;
  request_bytes: number;
  /** The sent body equals the counted request byte for byte (HTTP providers refuse to send otherwise). */
  sent_matches_request?: boolean;
  /** The provider's own count of the request (vscode.lm countTokens), when it has one. */
  provider_count?: number;
  /** Input tokens the provider read from its prompt cache (OpenAI prompt_tokens_details.cached_tokens, Anthropic cache_read_input_tokens). */
  cached_tokens?: number;
  rebuilt?: Rebuild;
  attempts: AttemptRecord[];
  carried: CarriedResult[];
  /** Loop trims of the carried results (kept here: they are not workspace tool outputs). */
  carried_trimmed: Decision[];
  answer?: { stop: StopReason; text_chars: number; tool_calls: ToolCall[] };
  error?: string;
}

export type SendManifest = Manifest & { send: SendSection };

export function renderSendSection(s: SendSection): string {
  const out: string[] = [];
  const row = (label: string, text: string) => out.push(`  ${label.padEnd(22)} ${text}`);
  out.push(`SEND (step ${s.step} of at most ${s.max_steps})`);
  row('Provider', [s.provider, s.endpoint, s.streaming ? '(streaming)' : ''].filter(Boolean).join('  '));
  s.carried.forEach((c, i) => {
    const figures =
      c.verdict === 'kept' ? `KEPT      ${num(c.tokens)}` : c.verdict === 'trimmed' ? `TRIMMED   ${num(c.original_tokens)} → ${num(c.tokens)}  (full: ${c.path})` : `OFFLOADED ${num(c.original_tokens)} → ${c.path}`;
    row(i === 0 ? 'Tool results carried' : '', `${c.tool.padEnd(18)} ${c.source.padEnd(32)} ${figures}${c.ok ? '' : '  (tool error)'}`);
  });
  if (s.rebuilt) {
    const r = s.rebuilt;
    const said = r.provider_limit && r.provider_count ? ` (provider: ${num(r.provider_count)} > ${num(r.provider_limit)} tokens)` : '';
    row('REBUILT', `${r.reason}: max_input ${num(r.max_input_before)} → ${num(r.max_input_after)}${said}, once`);
  }
  if (s.provider_count !== undefined) row('Provider count', `${num(s.provider_count)} tokens`);
  if (s.cached_tokens !== undefined) row('Cached input', `${num(s.cached_tokens)} tokens read from the provider's prompt cache`);
  for (const a of s.attempts) {
    const wait = a.waitMs !== undefined ? `; waited ${formatMs(a.waitMs)} (${a.waitReason})` : '';
    row(`Attempt ${a.attempt}`, a.outcome === 'ok' ? `ok${a.status ? ` (${a.status})` : ''}` : `${a.message ?? a.outcome}${wait}`);
  }
  if (!s.sent) row('Sent', `nothing (dry run): the request (${num(s.request_bytes)} bytes) was written instead`);
  else if (s.sent_matches_request !== undefined) {
    row('Sent', `${num(s.request_bytes)} bytes, ${s.sent_matches_request ? 'identical to the counted request' : 'DIFFERENT from the counted request'}`);
  }
  if (s.answer && s.answer.stop !== 'dry_run') {
    const calls = s.answer.tool_calls.map((c) => `${c.name} ${c.arguments}`);
    row('Answer', `${s.answer.stop}, ${num(s.answer.text_chars)} characters of text${calls.length ? `, ${calls.length} tool call${calls.length > 1 ? 's' : ''}` : ''}`);
    for (const c of calls) row('', `→ ${c}`);
  }
  if (s.error) row('Error', s.error);
  return out.join('\n') + '\n';
}

export type Stopped = 'answered' | 'dry_run' | 'step_limit' | 'max_tokens' | 'error' | 'refused';

const STOPPED: Record<Stopped, string> = {
  answered: 'the model answered',
  dry_run: 'dry run: nothing was sent',
  step_limit: 'the step limit was reached while the model still asked for tools (their calls were not run)',
  max_tokens: 'the answer hit the output limit (max_tokens)',
  error: 'the provider failed',
  refused: 'refused: the mandatory blocks do not fit',
};

export function renderSendTrace(stepTraces: string[], stopped: Stopped, maxSteps: number): string {
  const parts = stepTraces.map((t, i) => `════ STEP ${i + 1} ════\n\n${t}`);
  parts.push(`SEND RESULT\n  ${STOPPED[stopped]} after ${stepTraces.length} step${stepTraces.length === 1 ? '' : 's'} (limit ${maxSteps})\n`);
  return parts.join('\n');
}
