import { redact, redactDeep } from '../redact/apply';
import type { Tokenizer } from '../tokens';
import { VIEWS, type Change, type GatewayMode, type Plan, type PlanReport } from './plan';
import type { Usage } from './usage';
import { isObject, type Api, type Json } from './wire';

/**
 * One call's record: what the agent sent (redacted), what was sent upstream when it differs (redacted), the
 * provider's usage, and the manifest: tokens per component, every change with its reason, the durable blocks
 * present or added, whether the prefix held. Never a header: auth stays out of every record.
 */

/** One call through the gateway; the plan's report (changes, notes, pins, the prefix) as plan.ts defines it. */
export interface CallRecord extends PlanReport {
  id: string;
  at: string;
  mode: GatewayMode;
  api: Api;
  path: string;
  model?: string;
  stream: boolean;
  conversation?: string;
  status?: number;
  duration_ms?: number;
  /** Stream events passed through, for SSE answers. */
  events?: number;
  usage?: Usage;
  window?: number;
  tokens?: Tokens;
  /** An internal error the call was forwarded unchanged after (fail-open), or refused on (fail-closed). */
  error?: string;
  received: Json | string;
  /** Absent when the upstream got the agent's bytes unchanged (`sent_unchanged`). */
  sent?: Json | string;
  sent_unchanged: boolean;
}

export interface Tokens {
  /** o200k_base counts; approximate for models with another tokenizer. */
  encoding: string;
  system: number;
  tools: number;
  rules_and_pins: number;
  messages: number;
  tool_results: { where: string; call_id?: string; tool?: string; tokens: number }[];
  total: number;
}

/** A model's context window, for the families the gateway knows; undefined otherwise. */
export function modelWindow(model: string | undefined): number | undefined {
  const m = (model ?? '').toLowerCase().replace(/^.*\//, '');
  if (/^claude/.test(m)) return /\[1m\]/.test(m) ? 1_000_000 : 200_000;
  if (/^gpt-5/.test(m)) return 400_000;
  if (/^gpt-4\.1/.test(m)) return 1_047_576;
  if (/^(gpt-4o|chatgpt-4o)/.test(m)) return 128_000;
  if (/^(o1|o3|o4)/.test(m)) return 200_000;
  return undefined;
}

/** Tokens per component of the request as sent. */
export function tokensOf(plan: Plan, tokenizer: Tokenizer): Tokens {
  const { view } = plan;
  const system = tokenizer.count(view.systemText());
  const tools = tokenizer.count(view.toolsJson());
  const added = plan.changes.find((c) => c.rule === 'pins-added');
  const rules = added?.tokens_after ?? 0;
  const messages = view.items.reduce<number>((n, item) => n + tokenizer.count(typeof item === 'string' ? item : JSON.stringify(item)), 0);
  const tool_results = view.slots
    .filter((s) => s.kind === 'tool_result')
    .map((s) => ({ where: s.where, ...(s.callId ? { call_id: s.callId } : {}), ...(s.tool ? { tool: s.tool } : {}), tokens: tokenizer.count(s.sent ?? s.text) }));
  return { encoding: tokenizer.encoding, system, tools, rules_and_pins: rules, messages, tool_results, total: system + tools + messages };
}

/**
 * The changes, each offloaded tool result with its exact tokens as received (redacted, as the plan read it): the
 * plan counted only far enough to know it was over the threshold; this runs after the call, off its path. The
 * change's `where` is the received request's.
 */
function countedChanges(plan: Plan, received: Json | undefined, tokenizer: Tokenizer): Change[] {
  if (!plan.changes.some((c) => c.rule === 'offloaded') || !isObject(received)) return plan.changes;
  const original = new Map(VIEWS[plan.api](received).slots.map((s) => [s.where, s.text]));
  return plan.changes.map((c) => {
    const text = c.rule === 'offloaded' ? original.get(c.where) : undefined;
    return text === undefined ? c : { ...c, tokens_before: tokenizer.count(redact(text).text) };
  });
}

/** The body as JSON, or undefined when it is not JSON. */
function parsed(raw: string): Json | undefined {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return undefined;
  }
}

/** The body redacted: as JSON when it is JSON (`body`, parsed once for the whole record), else as text. */
function redactedBody(raw: string, body: Json | undefined = parsed(raw)): Json | string {
  return body === undefined ? redactDeep(raw) : redactDeep(body);
}

export interface RecordInput {
  id: string;
  at: Date;
  mode: GatewayMode;
  api: Api;
  path: string;
  received: string;
  plan?: Plan;
  error?: string;
  status?: number;
  duration_ms?: number;
  events?: number;
  usage?: Usage;
  tokenizer: Tokenizer;
}

export function buildRecord(input: RecordInput): CallRecord {
  const { plan } = input;
  const sent = plan?.body;
  const received = parsed(input.received);
  return {
    id: input.id,
    at: input.at.toISOString(),
    mode: input.mode,
    api: input.api,
    path: input.path,
    model: plan?.model,
    stream: plan?.stream ?? false,
    conversation: plan?.conversation,
    status: input.status,
    duration_ms: input.duration_ms,
    ...(input.events !== undefined ? { events: input.events } : {}),
    usage: input.usage,
    window: modelWindow(plan?.model),
    tokens: plan ? tokensOf(plan, input.tokenizer) : undefined,
    changes: plan ? countedChanges(plan, received, input.tokenizer) : [],
    notes: plan?.notes ?? [],
    pins: plan?.pins ?? { present: [], added: [] },
    prefix_stable: plan?.prefix_stable ?? null,
    received_prefix_stable: plan?.received_prefix_stable ?? null,
    ...(plan?.prefix_diverged_at !== undefined ? { prefix_diverged_at: plan.prefix_diverged_at } : {}),
    prefix_broken_by_gateway: plan?.prefix_broken_by_gateway ?? false,
    ...(input.error ? { error: input.error } : {}),
    received: redactedBody(input.received, received),
    ...(sent !== undefined ? { sent: redactedBody(sent) } : {}),
    sent_unchanged: sent === undefined,
  };
}
