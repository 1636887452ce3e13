import type { Policy } from '../policy';
import { redact } from '../redact/apply';
import { countUpTo, type Tokenizer } from '../tokens';
import { trimOptions } from '../chain/trim';
import { pickTrimmer } from '../trim/pick';
import type { Lines } from '../trim/types';
import { parseAgentPreview } from './agent-preview';
import { anthropicView } from './anthropic';
import { chatView } from './chat';
import { hashText, slotKey, type Conversation, type DecisionStore, type PrefixState, type StoredChange } from './decisions';
import { responsesView } from './responses';
import { isObject, type Api, type Json, type JsonObject, type TextSlot, type WireView } from './wire';

/**
 * The transform planner: one agent request in, the request to send and every decision out. Deterministic: the same
 * request, policy, durable blocks and store give the same bytes. New decisions are taken only in the last user turn
 * (what the agent added since its model last answered); anything earlier is changed only by replaying a stored
 * decision, so each request's prefix stays byte-identical to the previous one. Assistant turns, tool definitions,
 * ids and the order of messages are never changed. The world (the offload store, the agent's saved files) comes in
 * through `PlanContext`; nothing here does I/O of its own.
 */

export type GatewayMode = 'observe' | 'control';

/** An AGENTS.md rule file or a pinned block, as the chain collects them. */
export interface DurableText {
  kind: 'agents_md' | 'pinned';
  source: string;
  /** The block's own text, looked for in the request. */
  text: string;
  /** The block in its provenance tag, as added. */
  wrapped: string;
}

export interface PlanContext {
  mode: GatewayMode;
  policy: Policy;
  tokenizer: Tokenizer;
  durable: DurableText[];
  store: DecisionStore;
  /** Store a tool result whole; returns the path named to the agent. */
  offload: (name: string, text: string) => string;
  /** An agent's saved output, when its path is in that agent's own tool-results folder. */
  readAgentOutput: (path: string) => { text: string } | { refused: string };
  /** false for a call that is not a turn of the conversation (count_tokens): its prefix is not remembered. */
  track?: boolean;
}

export interface Change {
  rule: 'offloaded' | 'agent-preview' | 'redacted' | 'pins-added';
  where: string;
  kind: TextSlot['kind'] | 'system';
  reason: string;
  /** true when the decision was stored by an earlier call and replayed as is. */
  replayed: boolean;
  call_id?: string;
  tool?: string;
  path?: string;
  /** An offloaded tool result's exact tokens as received: set by its record (record.ts), not by the plan. */
  tokens_before?: number;
  /** The rules and pins added to the system part (pins-added). */
  tokens_after?: number;
}

/** What a plan says about the request it made: the changes, the pins and whether the prefix held (a call's record carries the same). */
export interface PlanReport {
  changes: Change[];
  /** Notes on things seen but left alone (a preview outside the agent's folder, a body JSON cannot carry exactly). */
  notes: string[];
  pins: { present: string[]; added: string[] };
  /** Whether the items before the last user turn are byte-identical (cache markers aside) to the previous request of the conversation; null on its first call. */
  prefix_stable: boolean | null;
  /** The same for what the agent itself sent. */
  received_prefix_stable: boolean | null;
  /** Where the sent prefix first differs from the previous request's (`system`: the system part or the tools; else an item index). */
  prefix_diverged_at?: number | 'system';
  /** true when the gateway changed a prefix the agent kept: the sent prefix diverges earlier than the received one. */
  prefix_broken_by_gateway: boolean;
}

export interface Plan extends PlanReport {
  api: Api;
  model?: string;
  stream: boolean;
  conversation: string;
  /** The bytes to send, when they differ from the received ones. */
  body?: string;
  view: WireView;
}

/** Codex's own head-and-tail cut of a long command output. */
const AGENT_TRUNCATION = /Warning: truncated output \(original token count: \d+\)|Total output lines: \d+\s*\n[\s\S]{0,200}…\d+ tokens truncated…/;

export const VIEWS: Record<Api, (body: JsonObject) => WireView> = { anthropic: anthropicView, responses: responsesView, chat: chatView };

/** The policy's gateway figures, with their defaults. */
export function gatewayLimits(policy: Policy): { resultTokens: number; digestTokens: number } {
  const g = policy.gateway ?? {};
  return { resultTokens: g.tool_result_tokens ?? policy.offload.per_result_tokens, digestTokens: g.digest_tokens ?? policy.zones.tool_results.max_tokens };
}

export function plan(api: Api, raw: string, ctx: PlanContext): Plan {
  const parsed = JSON.parse(raw) as Json;
  if (!isObject(parsed)) throw new Error('the request body is not a JSON object');
  const view = VIEWS[api](parsed);
  const conversationId = conversationOf(view);
  const conv = ctx.store.conversation(conversationId);
  const received = prefixState(view);
  const receivedStable = stable(conv.lastReceived, received, view.tail);
  const receivedAt = divergedAt(conv.lastReceived, received, view.tail);
  if (ctx.track !== false) conv.lastReceived = received;
  const notes: string[] = [];
  const changes: Change[] = [];
  const present = presentDurable(ctx.durable, ctx.durable.length ? [view.systemText(), ...stringsOf(view.items)].join('\n') : '');
  let added: string[] = [];
  const exact = ctx.mode === 'control' ? exactNumbers(raw) : true;
  if (!exact) notes.push('the body holds a number JSON cannot carry exactly (over 2^53): forwarded unchanged');
  if (ctx.mode === 'control' && exact) {
    for (const slot of view.slots) {
      const change = decide(slot, view, conv, ctx, notes);
      if (change) changes.push(change);
    }
    added = ctx.durable.filter((d) => conv.durableAdded.has(d.source) || !present.includes(d.source)).map((d) => d.source);
    if (added.length) {
      const blocks = ctx.durable.filter((d) => added.includes(d.source));
      const text = [`[Context Control] The project's rules and pinned blocks, verbatim (${added.join(', ')}): not found in this conversation, added by the gateway. They apply.`, ...blocks.map((b) => b.wrapped)].join('\n\n');
      view.addSystemBlock(text);
      conv.durableAdded = new Set(added);
      changes.push({ rule: 'pins-added', where: 'system', kind: 'system', reason: `${added.length} durable block(s) missing from the request: ${added.join(', ')}`, replayed: false, tokens_after: ctx.tokenizer.count(text) });
    }
  }
  const touched = new Set(view.slots.filter((x) => x.sent !== undefined).map((x) => x.item));
  const sent = !shiftedItems(view, received) ? prefixState(view, { from: received, touched }) : prefixState(view);
  const sentStable = stable(conv.lastSent, sent, view.tail);
  const sentAt = divergedAt(conv.lastSent, sent, view.tail);
  const rank = (at: number | 'system' | undefined) => (at === undefined ? Infinity : at === 'system' ? -1 : at);
  if (ctx.track !== false) conv.lastSent = sent;
  return {
    api,
    model: view.model,
    stream: view.stream,
    conversation: conversationId,
    body: changes.length ? JSON.stringify(view.body) : undefined,
    view,
    changes,
    notes,
    pins: { present: present.filter((p) => !added.includes(p)), added },
    prefix_stable: sentStable,
    received_prefix_stable: receivedStable,
    ...(sentAt !== undefined ? { prefix_diverged_at: sentAt } : {}),
    prefix_broken_by_gateway: rank(sentAt) < rank(receivedAt),
  };
}

/** Fail open: the plan, or the original bytes and the error when planning threw. */
export function planOrOriginal(api: Api, raw: string, ctx: PlanContext): { plan?: Plan; error?: string } {
  try {
    return { plan: plan(api, raw, ctx) };
  } catch (e) {
    return { error: (e as Error).message ?? String(e) };
  }
}

function decide(slot: TextSlot, view: WireView, conv: Conversation, ctx: PlanContext, notes: string[]): Change | undefined {
  const key = slotKey(slot.kind, slot.text);
  const stored = conv.changes.get(key);
  const base = { where: slot.where, kind: slot.kind, ...(slot.callId ? { call_id: slot.callId } : {}), ...(slot.tool ? { tool: slot.tool } : {}) };
  if (stored) {
    slot.set(stored.text);
    slot.sent = stored.text;
    return { ...base, rule: stored.rules[0] as Change['rule'], reason: stored.reason, replayed: true, ...(stored.path ? { path: stored.path } : {}) };
  }
  // Before the last user turn, nothing new is decided: the provider has cached those bytes.
  if (slot.item < view.tail) return undefined;
  const made = transform(slot, ctx, notes);
  if (!made) return undefined;
  ctx.store.remember(conv, key, made);
  slot.set(made.text);
  slot.sent = made.text;
  return { ...base, rule: made.rules[0] as Change['rule'], reason: made.reason, replayed: false, ...(made.path ? { path: made.path } : {}) };
}

function transform(slot: TextSlot, ctx: PlanContext, notes: string[]): StoredChange | undefined {
  const cleaned = redact(slot.text);
  const secrets = cleaned.found.length ? `${cleaned.found.length} secret(s) redacted (${[...new Set(cleaned.found.map((f) => f.rule))].join(', ')})` : '';
  if (slot.kind === 'tool_result') {
    const preview = parseAgentPreview(slot.text);
    if (preview) {
      const read = ctx.readAgentOutput(preview.path);
      if ('text' in read) {
        const whole = redact(read.text).text;
        const d = digest(whole, preview.path, slot.tool, ctx);
        const text = `[Context Control gateway: the agent saved this tool output to ${preview.path} and showed only ${preview.shown} of it; below is the evidence digest of the whole saved file (${Buffer.byteLength(read.text)} bytes, ${d.note}). Read ${preview.path} with your file tools for anything left out.]\n${d.text}`;
        return { text, rules: ['agent-preview', ...(secrets ? ['redacted'] : [])], reason: `the agent's head-only preview (${preview.shown}) replaced by the evidence digest of its saved file`, path: preview.path };
      }
      notes.push(`${slot.where}: the agent's preview names ${preview.path}, not read: ${read.refused}`);
    }
    const cut = AGENT_TRUNCATION.exec(slot.text.slice(0, 2000));
    if (cut) notes.push(`${slot.where}: the agent cut this output itself before sending it (${cut[0].trim()}): what it left out never reached the gateway (Codex: raise tool_output_token_limit)`);
    const { resultTokens } = gatewayLimits(ctx.policy);
    // Whether it is over the threshold, counted only that far: the exact count of the whole result is the record's
    // (record.ts's tokens_before, worked out after the call), not the request path's.
    if (cleaned.text.length > resultTokens && countUpTo(ctx.tokenizer, cleaned.text, resultTokens) > resultTokens) {
      const bytes = Buffer.byteLength(cleaned.text);
      const where = ctx.offload(`gateway-${slot.tool || 'tool'}`, cleaned.text);
      const d = digest(cleaned.text, where, slot.tool, ctx);
      const text = `[Context Control gateway: this tool output (${bytes} bytes) is over the ${resultTokens}-token threshold; the whole output is saved at ${where}. Below: ${d.note}. Read that file with your file tools for anything left out.]\n${d.text}`;
      return { text, rules: ['offloaded', ...(secrets ? ['redacted'] : [])], reason: `over gateway.tool_result_tokens ${resultTokens} (${bytes} bytes): offloaded whole and trimmed (${d.format})${secrets ? `; ${secrets}` : ''}`, path: where };
    }
  }
  if (secrets) return { text: cleaned.text, rules: ['redacted'], reason: secrets };
  return undefined;
}

/** The evidence-preserving trim of a whole text, within the policy's digest budget, naming where the rest is. */
function digest(text: string, reference: string, tool: string | undefined, ctx: PlanContext): { text: string; note: string; format: string } {
  // Split once: the format sniff and the trimmer each read the lines (they only iterate them).
  let split: string[] | undefined;
  const lines: Lines = () => (split ??= text.split('\n'));
  const picked = pickTrimmer(reference, undefined, lines, tool);
  const out = picked.trimmer(lines, trimOptions(ctx.policy, ctx.tokenizer, gatewayLimits(ctx.policy).digestTokens, reference));
  return { text: out.text, note: `${picked.format}: ${out.note}`, format: picked.format };
}

/** Every string of a JSON value (texts, tool outputs, arguments), in order. */
function stringsOf(value: Json, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Items hashed without the agent's moving cache markers (`cache_control`), which are not content; untouched items reuse the received hashes. */
function prefixState(view: WireView, reuse?: { from: PrefixState; touched: Set<number> }): PrefixState {
  const noMarkers = (k: string, v: unknown) => (k === 'cache_control' ? undefined : v);
  const hashItem = (item: Json) => {
    const plain = JSON.stringify(item);
    return hashText(plain.includes('"cache_control"') ? JSON.stringify(item, noMarkers) : plain);
  };
  return {
    head: hashText(`${view.systemText()}\u0000${view.toolsJson()}`),
    items: view.items.map((item, i) => (reuse && !reuse.touched.has(i) ? reuse.from.items[i] : hashItem(item))),
  };
}

/** True when the planner put an item in front (a chat request's new system message): no hash can be reused. */
function shiftedItems(view: WireView, received: PrefixState): boolean {
  return view.items.length !== received.items.length;
}

/**
 * The durable blocks the request already holds, whitespace aside. A block whose longest line is nowhere in the
 * text is absent without normalizing the whole request (the common case on a large one).
 */
function presentDurable(durable: DurableText[], text: string): string[] {
  if (durable.length === 0) return [];
  let normal: string | undefined;
  return durable
    .filter((d) => {
      const longest = d.text.split('\n').map((l) => l.trim()).sort((a, b) => b.length - a.length)[0] ?? '';
      if (longest && !text.includes(longest)) return false;
      normal ??= normalize(text);
      return normal.includes(normalize(d.text));
    })
    .map((d) => d.source);
}

/** The previous request's items are all still there, unchanged and first, and the system and tools too. */
function stable(previous: PrefixState | undefined, current: PrefixState, tail: number): boolean | null {
  if (!previous) return null;
  if (previous.head !== current.head) return false;
  const n = Math.min(previous.items.length, Math.max(tail, 0));
  for (let i = 0; i < n; i++) if (previous.items[i] !== current.items[i]) return false;
  return previous.items.length <= current.items.length;
}

function divergedAt(previous: PrefixState | undefined, current: PrefixState, tail: number): number | 'system' | undefined {
  if (!previous) return undefined;
  if (previous.head !== current.head) return 'system';
  const n = Math.min(previous.items.length, Math.max(tail, 0));
  for (let i = 0; i < n; i++) if (previous.items[i] !== current.items[i]) return i;
  return previous.items.length <= current.items.length ? undefined : current.items.length;
}

/**
 * The conversation: the agent's own id when it sends one (Claude Code's session in metadata.user_id, Codex's
 * prompt_cache_key) with the system part (a subagent of the same session has its own), else the first user item.
 */
function conversationOf(view: WireView): string {
  if (view.conversationHint) return hashText(`${view.api}\u0000${view.conversationHint}\u0000${view.systemText()}`).slice(0, 16);
  const first = view.items.find((i) => isObject(i) && i.role === 'user') ?? view.items[0] ?? '';
  return hashText(`${view.api}\u0000${JSON.stringify(first)}`).slice(0, 16);
}

/**
 * False when a number outside strings has more digits than a double keeps exactly: re-serializing the body would
 * change it. Strings are skipped by their quotes; only the text between them is looked at.
 */
export function exactNumbers(raw: string): boolean {
  let at = 0;
  while (at < raw.length) {
    const open = raw.indexOf('"', at);
    const outside = open === -1 ? raw.slice(at) : raw.slice(at, open);
    for (const m of outside.matchAll(/-?\d+(\.\d+)?([eE][+-]?\d+)?/g)) {
      if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(Number(m[0]))) return false;
      if ((m[1] !== undefined || m[2] !== undefined) && m[0].replace(/[eE].*$/, '').replace(/[^0-9]/g, '').replace(/^0+/, '').length > 17) return false;
    }
    if (open === -1) break;
    let close = open + 1;
    for (;;) {
      close = raw.indexOf('"', close);
      if (close === -1) return true;
      let slashes = 0;
      for (let k = close - 1; raw[k] === '\\'; k--) slashes++;
      if (slashes % 2 === 0) break;
      close++;
    }
    at = close + 1;
  }
  return true;
}
