import { redact, type Redaction } from '../redact/apply';
import type { ToolDefinition } from '../tools';
import { TOOL_DEFINITIONS } from '../tools';
import type { Block, BlockKind } from '../types';
import { concat } from '../concat';
import { attrs, escapeContent } from './escape';
import { replayMessages } from '../session/replay';
import { safeId } from '../redact/safe-id';
import { wrapEntry, type WrapEntry } from './wrap-memo';

export { attrs, escapeAttr, escapeContent, escapeXml } from './escape';

/**
 * Order and render: blocks become messages in the design's order, each piece of workspace content wrapped with
 * its provenance and escaped (escape.ts) so that it cannot open or close an element of the envelope. Only
 * harness text goes in the system role.
 *
 * Render is also the request's redaction choke point: every string of the request (system text, each block as
 * wrapped, with its attributes, replayed turns, tool call arguments and ids) passes the redaction rule set here,
 * so nothing that reaches a provider shape, the counter or request.json can bypass it. What this pass redacts
 * (secrets that slipped past the readers, e.g. in a title, a label, a path or an id) is listed in `redactions`.
 */

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

export interface RequestMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  /** Ids of the blocks this message carries, for the manifest and the panel. */
  blocks: string[];
  /** Where the stable prefix ends in `content` (characters): the cache breakpoint of the shapes that mark one. */
  cacheBreak?: number;
}

/** The provider-neutral request; a provider file writes it in its wire shape. */
export interface NeutralRequest {
  model: string;
  system: string;
  messages: RequestMessage[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
  /** Secrets this render redacted, by block source (never part of the wire body). */
  redactions?: RequestRedaction[];
  /** The workspace's prompt-cache key (a hash, never a path), for the shapes that send one. */
  cacheKey?: string;
}

export interface RequestRedaction extends Redaction {
  /** The block (or `system`, or `session file:line`) whose text held the secret; line is within its wrapped text. */
  source: string;
}

/** Request order: the stable, cache-friendly prefix first, the current task last; lower comes first. */
export const ORDER: Record<BlockKind, number> = {
  system_instructions: 1,
  tool_definitions: 2,
  agents_md: 3,
  pinned: 3,
  session_summary: 4,
  index: 5,
  session_group: 6,
  decision: 7,
  source_code: 7,
  document: 7,
  tool_result: 7,
  current_task: 8,
};

/** The exact text a block contributes to the request (what its token figure counts): wrapped, then redacted. */
export function wrap(block: Block): string {
  return wrapped(block).text;
}

/** The block's wrapped text with what its redaction found, known between calls (wrap-memo.ts). */
export function wrapped(block: Block): WrapEntry {
  return wrapEntry(block, (b) => redact(wrapRaw(b)));
}

function wrapRaw(block: Block): string {
  const body = escapeContent(block.text);
  switch (block.kind) {
    case 'system_instructions':
      return block.text;
    case 'tool_definitions':
      return block.text;
    case 'agents_md':
      return `<rules${attrs({ source: block.source, trust: block.trust })}>\n${body}\n</rules>`;
    case 'pinned':
      return `<pinned${attrs({ source: block.source, trust: block.trust, label: block.meta.title })}>\n${body}\n</pinned>`;
    case 'session_summary':
      return `<session-summary${attrs({ source: block.source, trust: block.trust })}>\n${body}\n</session-summary>`;
    case 'index':
      return block.text;
    case 'session_group':
      return block.text;
    case 'tool_result': {
      const t = block.meta.trim;
      const o = block.meta.offload;
      const head = attrs({
        source: block.source,
        trust: block.trust,
        trimmed: t ? 'true' : undefined,
        'original-lines': t?.original_lines,
        'retained-lines': t?.retained_lines,
        'original-tokens': t ? `${t.original_tokens_exact ? '' : '~'}${t.original_tokens}` : undefined,
        reference: t?.reference ?? o?.path,
        offloaded: o ? 'true' : undefined,
      });
      const notice = t ? `[trimmed: ${t.retained_lines} of ${t.original_lines} lines kept; the full output is at ${t.reference}]\n` : '';
      return `<tool-output${head}>\n${escapeContent(notice)}${body}\n</tool-output>`;
    }
    case 'current_task':
      return `<task${attrs({ source: block.source, trust: block.trust })}>\n${body}\n</task>`;
    default: {
      // Commit evidence is a block of its own that names the file and the commit (never an index entry).
      const head = attrs({
        source: block.source,
        trust: block.trust,
        ...(block.meta.commit ? { path: block.meta.commit.path, commit: block.meta.commit.id } : {}),
        status: block.meta.status,
        summarized: block.meta.summarized ? 'true' : undefined,
      });
      return `<document${head}>\n<content>\n${body}\n</content>\n</document>`;
    }
  }
}

export interface IndexEntry {
  path: string;
  title: string;
  summary?: string;
  tags?: string[];
  estimatedTokens: number;
  /** Decisions: their status (`accepted`, `proposed (not in force)`). */
  status?: string;
  /** Relevance to the task (share of the best match, explicit signals added) and why the document is not loaded. */
  relevance?: number;
  notLoaded?: string;
}

export function renderIndex(entries: IndexEntry[], more?: string): string {
  const lines = entries.map(
    (e) => `  <document${attrs({ path: e.path, title: e.title, summary: e.summary, tags: e.tags?.join(','), 'estimated-tokens': e.estimatedTokens, status: e.status, relevance: e.relevance, 'not-loaded': e.notLoaded })} />`,
  );
  if (more) lines.push(`  <left-out>${escapeContent(more)}</left-out>`);
  return `<available-documents>\n${lines.join('\n')}\n</available-documents>`;
}

/**
 * The retired decisions the task asks about (issue 25), in a block of their own after the index: named with their
 * status and successor so the model can answer "that was superseded by …", never offered as documents to fetch.
 */
export function renderRetired(entries: { path: string; title: string; status: string }[]): string {
  const lines = entries.map((e) => `  <decision${attrs({ path: e.path, title: e.title, status: e.status })} />`);
  return `<retired-decisions note="the task asks about these; not in force and not loaded (read_document does not fetch them): follow their successor">\n${lines.join('\n')}\n</retired-decisions>`;
}

/** The kinds of the stable prefix, byte-identical from call to call until a rule, a pin or the summary changes. */
export const STABLE_KINDS = new Set<BlockKind>(['system_instructions', 'tool_definitions', 'agents_md', 'pinned', 'session_summary']);

/**
 * Stable sort by the design's order; within a slot, higher priority first, then source for determinism. The stable
 * prefix comes first: rules in collect's order (root first, then by depth and path), then pins by path.
 */
export function orderBlocks(blocks: Block[]): Block[] {
  return [...blocks].sort((a, b) => {
    const d = ORDER[a.kind] - ORDER[b.kind];
    if (d !== 0) return d;
    if (a.kind === 'session_group') return (a.meta.groupIndex ?? 0) - (b.meta.groupIndex ?? 0);
    // Rules keep the order collect gave them (root first, deeper files later); then the pins.
    if (a.kind === 'agents_md' || b.kind === 'agents_md') return a.kind === b.kind ? 0 : a.kind === 'agents_md' ? -1 : 1;
    if (a.kind === 'pinned') return a.source.localeCompare(b.source) || a.id.localeCompare(b.id);
    return b.priority - a.priority || a.source.localeCompare(b.source);
  });
}

/**
 * The parts a user message's content was joined from, in order (the wrapped blocks, the separators): the request
 * counter serializes a large message from its parts' escaped texts, known from the call before (request-count.ts).
 */
export const CONTENT_PARTS = new WeakMap<RequestMessage, readonly string[]>();

export function render(blocks: Block[], model: string, maxOutputTokens: number): NeutralRequest {
  const ordered = orderBlocks(blocks);
  const redactions: RequestRedaction[] = [];
  const clean = (text: string, source: string) => {
    const r = redact(text);
    for (const f of r.found) redactions.push({ source, ...f });
    return r.text;
  };
  const wrappedText = (b: Block) => {
    const e = wrapped(b);
    for (const f of e.found) redactions.push({ source: b.source, ...f });
    return e.text;
  };
  const system = ordered.filter((b) => b.kind === 'system_instructions');
  const hasTools = ordered.some((b) => b.kind === 'tool_definitions');
  const messages: RequestMessage[] = [];
  const userMessage = (parts: Block[]) => {
    if (parts.length === 0) return;
    const tasks = parts.filter((p) => p.kind === 'current_task');
    const context = parts.filter((p) => p.kind !== 'current_task').map(wrappedText);
    // One string of every part, not copied until it is read whole (concat.ts); its pieces are counted and escaped.
    const pieces: string[] = [];
    if (context.length) {
      pieces.push('<working-context>\n');
      context.forEach((c, i) => pieces.push(...(i > 0 ? ['\n\n', c] : [c])));
      pieces.push('\n</working-context>');
    }
    for (const t of tasks.map(wrappedText)) if (t) pieces.push(...(pieces.length ? ['\n\n', t] : [t]));
    const content = concat(pieces);
    const stable = parts.filter((p) => STABLE_KINDS.has(p.kind)).length;
    const cacheBreak = stable > 0 ? '<working-context>\n'.length + context.slice(0, stable).reduce((n, c, i) => n + (i > 0 ? 2 : 0) + c.length, 0) : undefined;
    const message: RequestMessage = { role: 'user', content, blocks: parts.map((p) => p.id), ...(cacheBreak ? { cacheBreak } : {}) };
    CONTENT_PARTS.set(message, pieces);
    messages.push(message);
  };
  userMessage(ordered.filter((b) => ORDER[b.kind] >= 3 && ORDER[b.kind] <= 5));
  for (const group of ordered.filter((b) => b.kind === 'session_group')) {
    for (const m of replayMessages(group)) {
      messages.push({
        ...m,
        content: clean(m.content, group.source),
        ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ id: safeId(c.id), name: safeId(c.name), arguments: clean(c.arguments, group.source) })) } : {}),
        ...(m.toolCallId !== undefined ? { toolCallId: safeId(m.toolCallId) } : {}),
      });
    }
  }
  userMessage(ordered.filter((b) => ORDER[b.kind] >= 7));
  return {
    model,
    system: clean(system.map((b) => b.text).join('\n\n'), 'builtin:system'),
    messages,
    tools: hasTools ? [...TOOL_DEFINITIONS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [],
    maxOutputTokens,
    redactions,
  };
}
