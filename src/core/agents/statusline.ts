import * as path from 'node:path';
import { modelWindow } from '../gateway/record';
import { num } from '../report/trace';

/**
 * `ctxctl statusline claude-code`: the context use of the agent's last request, in one short line. The figure is the
 * provider's own usage for that request (input, cache reads and cache writes), from the gateway's record of the call
 * when the gateway carried it, else from the last assistant turn of Claude Code's transcript. Pure.
 */

export interface LastRequest {
  from: 'gateway' | 'transcript';
  /** ISO time of the request's answer. */
  at?: string;
  model?: string;
  /** Tokens of context the request used, as the provider counted them. */
  context: number;
  window?: number;
  /** Gateway only: what it changed (pins re-added, results trimmed). */
  changes?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** The last assistant turn with a usage, in a Claude Code transcript (JSON Lines; a line that is not JSON is skipped). */
export function fromTranscript(lines: string[]): LastRequest | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith('{')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(entry) || entry.type !== 'assistant' || !isObj(entry.message) || !isObj(entry.message.usage)) continue;
    // A sidechain (a subagent's turn) is not the agent's own request.
    if (entry.isSidechain === true) continue;
    const u = entry.message.usage;
    const context = n(u.input_tokens) + n(u.cache_read_input_tokens) + n(u.cache_creation_input_tokens);
    if (context === 0) continue;
    const model = typeof entry.message.model === 'string' ? entry.message.model : undefined;
    return { from: 'transcript', at: typeof entry.timestamp === 'string' ? entry.timestamp : undefined, model, context, window: modelWindow(model) };
  }
  return undefined;
}

/** A gateway call record (`.context/gateway/call-*.json`): its usage, or its own count when the answer had none. */
export function fromRecord(record: unknown): LastRequest | undefined {
  if (!isObj(record)) return undefined;
  const u = isObj(record.usage) ? record.usage : {};
  // Anthropic's input_tokens leaves the cached part out; the other APIs count it in.
  const used = record.api === 'anthropic' ? n(u.input_tokens) + n(u.cache_read_tokens) + n(u.cache_write_tokens) : n(u.input_tokens);
  const counted = isObj(record.tokens) ? n(record.tokens.total) : 0;
  const context = used || counted;
  if (context === 0) return undefined;
  const model = typeof record.model === 'string' ? record.model : undefined;
  return {
    from: 'gateway',
    at: typeof record.at === 'string' ? record.at : undefined,
    model,
    context,
    window: n(record.window) || modelWindow(model),
    changes: Array.isArray(record.changes) ? record.changes.length : 0,
  };
}

/** The gateway's record when it is the latest (the gateway carried the last request), else the transcript's. */
export function lastRequest(gateway: LastRequest | undefined, transcript: LastRequest | undefined): LastRequest | undefined {
  if (!gateway) return transcript;
  if (!transcript) return gateway;
  return Date.parse(gateway.at ?? '') >= Date.parse(transcript.at ?? '') - 5_000 ? gateway : transcript;
}

/** `ctx 45 210 / 200 000 tokens (23 %), last request, via ctxctl gateway (2 changes)`. */
export function statusText(last: LastRequest | undefined): string {
  if (!last) return 'ctx: no request yet';
  const share = last.window ? ` (${Math.round((last.context / last.window) * 100)} %)` : '';
  const of = last.window ? ` / ${num(last.window)}` : '';
  const via = last.from === 'gateway' ? `, via ctxctl gateway${last.changes ? ` (${last.changes} change${last.changes === 1 ? '' : 's'})` : ''}` : '';
  return `ctx ${num(last.context)}${of} tokens${share}, last request${via}`;
}

/** Why a transcript path is not read: only a `.jsonl` under an agent folder's `projects/` (Claude Code's own). */
export function transcriptRefusal(real: string, agentDirs: readonly string[]): string | undefined {
  if (!path.isAbsolute(real)) return 'not an absolute path';
  if (!real.endsWith('.jsonl')) return 'not a transcript (.jsonl)';
  const inside = agentDirs.some((dir) => {
    const rel = path.relative(path.join(path.resolve(dir), 'projects'), path.normalize(real));
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  return inside ? undefined : "outside Claude Code's own folders";
}
