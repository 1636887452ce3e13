import { collect } from '../chain/collect';
import { neutraliseLookAlikeClosers } from '../chain/escape';
import { escapeAttr } from '../chain/render';
import { maxInput } from '../policy';
import type { Snapshot } from '../sources/snapshot';
import { num } from '../report/trace';
import type { Tokenizer } from '../tokens';
import type { Block } from '../types';
import { PINS_FILE } from '../sources/pins';
import { skippedPinEntries } from '../sources/pin-entries';
import type { ClientLimit } from './hook-size';

/**
 * What an agent's SessionStart hook re-injects after a start, a resume or a compaction: the durable blocks of the
 * protected zone (the AGENTS.md rules that apply at the root, then the pinned blocks, in the chain's order), each
 * verbatim, within a token budget, behind one line saying what was re-injected and what was not. Pure over a snapshot.
 */

export interface DurableItem {
  kind: 'agents_md' | 'pinned';
  source: string;
  tokens: number;
}

export interface Reinjection {
  /** The `additionalContext`: the note line, then the blocks. */
  text: string;
  note: string;
  included: DurableItem[];
  /** Blocks that did not fit the budget, or could not be read: named in the note, never dropped silently. */
  omitted: (DurableItem & { reason: string })[];
  /** Exact tokens of `text`. */
  tokens: number;
  budget: number;
}

/** Room kept for the note line when blocks are placed. */
const NOTE_RESERVE = 160;

/** The rules and pins as the chain collects them (root rules only: no task names a file; secrets redacted). */
export function durableBlocks(snapshot: Snapshot): { blocks: Block[]; unreadable: { source: string; reason: string }[] } {
  const collected = collect(snapshot);
  const blocks = collected.value.blocks.filter((b) => b.kind === 'agents_md' || b.kind === 'pinned');
  const rules = blocks.filter((b) => b.kind === 'agents_md');
  const pins = blocks.filter((b) => b.kind === 'pinned');
  const unreadable = (collected.decisions.rejected ?? []).filter((d) => d.kind === 'pinned').map((d) => ({ source: d.source, reason: d.reason }));
  return { blocks: [...rules, ...pins], unreadable };
}

/**
 * A block in its provenance tag with its text verbatim. Only a closing tag of its own kind inside the text is
 * neutralised (`</rules` → `<\/rules`; a look-alike such as `< /rules` or `<\u200b/rules` loses its `<`), so a pinned
 * text cannot end its own block.
 */
export function wrapVerbatim(block: Block): string {
  const tag = block.kind === 'agents_md' ? 'rules' : 'pinned';
  const label = block.kind === 'pinned' && block.meta.title ? ` label="${escapeAttr(block.meta.title)}"` : '';
  const body = neutraliseLookAlikeClosers(block.text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1'), tag);
  return `<${tag} source="${escapeAttr(block.source)}"${label}>\n${body}\n</${tag}>`;
}

/** The budget: `maxTokens` when given, else the policy's max_input (window − output reserve − margin). */
export function reinjectBudget(snapshot: Snapshot, maxTokens?: number): number {
  return maxTokens ?? maxInput(snapshot.policy);
}

export interface ReinjectOptions {
  source: string;
  maxTokens?: number;
  /** What the client keeps of a hook's context (hook-size.ts); absent: tokens only. */
  client?: ClientLimit;
  /** The client loads AGENTS.md itself (Codex): the rules are not repeated, and the note says so. */
  clientLoadsRules?: boolean;
}

/**
 * Blocks in priority order (the rules, then the pins in order), each whole or not at all: a block that does not fit
 * the token budget or the client's characters is left out and named, with its tokens and "open it with
 * read_document". The note says "verbatim" of what was sent, which is always whole.
 */
export function reinjection(snapshot: Snapshot, tokenizer: Tokenizer, options: ReinjectOptions): Reinjection {
  const budget = reinjectBudget(snapshot, options.maxTokens);
  const durable = durableBlocks(snapshot);
  const { unreadable } = durable;
  const blocks = options.clientLoadsRules ? durable.blocks.filter((b) => b.kind !== 'agents_md') : durable.blocks;
  const ownRules = options.clientLoadsRules ? durable.blocks.filter((b) => b.kind === 'agents_md').map((b) => b.source) : [];
  const skipped = skippedPinEntries(snapshot.warnings).map((message) => ({ kind: 'pinned' as const, source: PINS_FILE, tokens: 0, reason: message }));
  const candidates = blocks.map((block) => {
    const text = wrapVerbatim(block);
    return { block, text, tokens: tokenizer.count(text) };
  });
  const fixed: Reinjection['omitted'] = [...skipped, ...unreadable.map((u) => ({ kind: 'pinned' as const, source: u.source, tokens: 0, reason: u.reason }))];
  const maxChars = options.client?.maxChars ?? Infinity;
  // The note's length depends on what is left out, so the fill is redone with a larger reserve until the whole fits.
  for (let reserve = NOTE_RESERVE_CHARS; ; reserve += NOTE_RESERVE_CHARS) {
    const r = withOwnRules(fillOnce(candidates, fixed, budget, maxChars - reserve, options), ownRules, options);
    if (r.text.length <= maxChars || r.included.length === 0) return { ...r, tokens: tokenizer.count(r.text) };
  }
}

/** The note names the rules the client loads itself, so the model knows they were not dropped. */
function withOwnRules(r: Omit<Reinjection, 'tokens'>, ownRules: string[], options: ReinjectOptions): Omit<Reinjection, 'tokens'> {
  if (ownRules.length === 0) return r;
  const label = options.client?.label ?? 'the client';
  const line = ` The rules of ${ownRules.join(', ')} are not repeated: ${label} loads AGENTS.md itself.`;
  const nothing = r.included.length === 0 && r.omitted.length === 0;
  const note = nothing ? `[Context Control] Nothing to re-inject on ${options.source} beyond what ${label} loads itself (${ownRules.join(', ')}).` : r.note + line;
  return { ...r, note, text: [note, ...r.text.split('\n\n').slice(1)].join('\n\n') };
}

/** Room kept for the note line, in characters, on the first try. */
const NOTE_RESERVE_CHARS = 400;

function fillOnce(candidates: { block: Block; text: string; tokens: number }[], fixed: Reinjection['omitted'], budget: number, roomChars: number, options: ReinjectOptions): Omit<Reinjection, 'tokens'> {
  const included: DurableItem[] = [];
  const omitted: Reinjection['omitted'] = [];
  const parts: string[] = [];
  let used = 0;
  let chars = 0;
  for (const { block, text, tokens } of candidates) {
    const item = { kind: block.kind as DurableItem['kind'], source: block.source, tokens };
    if (used + tokens + NOTE_RESERVE > budget) {
      omitted.push({ ...item, reason: `${num(tokens)} tokens; do not fit in the ${num(budget)}-token budget; open it with read_document` });
      continue;
    }
    if (chars + text.length + 2 > roomChars) {
      const client = options.client as ClientLimit;
      omitted.push({ ...item, reason: `${num(tokens)} tokens; ${client.label} keeps ${num(client.limitChars)} characters of a hook; open it with read_document` });
      continue;
    }
    used += tokens;
    chars += text.length + 2;
    included.push(item);
    parts.push(text);
  }
  const all = [...fixed, ...omitted];
  const note = noteLine(options.source, included, all, used, budget, options.client);
  return { text: [note, ...parts].join('\n\n'), note, included, omitted: all, budget };
}

function noteLine(source: string, included: DurableItem[], omitted: Reinjection['omitted'], used: number, budget: number, client?: ClientLimit): string {
  const rules = included.filter((i) => i.kind === 'agents_md').map((i) => i.source);
  const pins = included.filter((i) => i.kind === 'pinned');
  const what = [
    rules.length ? `the rules of ${rules.join(', ')}` : '',
    pins.length ? `${pins.length} pinned block${pins.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const size = client ? `${num(used)} tokens, budget ${num(budget)}; at most ${num(client.maxChars)} characters for ${client.label}` : `${num(used)} tokens, budget ${num(budget)}`;
  const head = what.length
    ? `[Context Control] Re-injected on ${source}, verbatim: ${what.join(' and ')} (${size}). They still apply.`
    : omitted.length
      ? `[Context Control] Nothing re-injected on ${source}.`
      : `[Context Control] Nothing to re-inject on ${source}: no AGENTS.md rules and no pinned blocks.`;
  const left = omitted.map((o) => (o.source === PINS_FILE ? `${o.source}: ${o.reason}` : `${o.source} (${o.reason})`));
  return left.length ? `${head} Not re-injected: ${left.join('; ')}.` : head;
}
