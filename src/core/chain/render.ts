import type { ToolDefinition } from '../tools';
import { TOOL_DEFINITIONS } from '../tools';
import type { Block, BlockKind, SessionEvent } from '../types';

/**
 * Order and render: blocks become messages in the design's order, each piece of workspace content wrapped with
 * its provenance and escaped so that it cannot close its own tag. Only harness text goes in the system role.
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
}

/** The provider-neutral request; a provider file writes it in its wire shape. */
export interface NeutralRequest {
  model: string;
  system: string;
  messages: RequestMessage[];
  tools: ToolDefinition[];
  maxOutputTokens: number;
}

/** Request order (DESIGN.md); lower comes first. */
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

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;').replace(/\n/g, ' ');
}

function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}

/** The exact text a block contributes to the request (what its token figure counts). */
export function wrap(block: Block): string {
  const body = escapeXml(block.text);
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
      return `<tool-output${head}>\n${escapeXml(notice)}${body}\n</tool-output>`;
    }
    case 'current_task':
      return `<task${attrs({ source: block.source, trust: block.trust })}>\n${body}\n</task>`;
    default: {
      const head = attrs({
        source: block.source,
        trust: block.trust,
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

export function renderIndex(entries: IndexEntry[]): string {
  const lines = entries.map(
    (e) => `  <document${attrs({ path: e.path, title: e.title, summary: e.summary, tags: e.tags?.join(','), 'estimated-tokens': e.estimatedTokens, status: e.status, relevance: e.relevance, 'not-loaded': e.notLoaded })} />`,
  );
  return `<available-documents>\n${lines.join('\n')}\n</available-documents>`;
}

function toolCallArguments(text: string): string {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return JSON.stringify(parsed);
  } catch {
    // free text: wrapped below
  }
  return JSON.stringify({ input: text });
}

/**
 * A replayed group as messages. The tool results follow their assistant tool_calls message directly, as the
 * OpenAI API requires; a call that never got a result is replayed before them as text, never as a dangling call.
 */
function groupMessages(block: Block): RequestMessage[] {
  const events: SessionEvent[] = block.meta.events ?? [];
  const out: RequestMessage[] = [];
  const answered = new Set(events.filter((e) => e.type === 'tool_result').map((e) => e.call_id));
  for (const e of events) {
    if (e.type === 'user' || e.type === 'assistant') out.push({ role: e.type, content: e.text, blocks: [block.id] });
    else if (e.type === 'tool_call' && !answered.has(e.call_id)) out.push({ role: 'assistant', content: `[tool call ${e.tool ?? ''} without a result] ${e.text}`, blocks: [block.id] });
  }
  const calls = events.filter((e) => e.type === 'tool_call' && answered.has(e.call_id));
  if (calls.length > 0) {
    out.push({
      role: 'assistant',
      content: '',
      toolCalls: calls.map((c) => ({ id: c.call_id ?? c.id, name: c.tool ?? 'tool', arguments: toolCallArguments(c.text) })),
      blocks: [block.id],
    });
  }
  for (const e of events.filter((x) => x.type === 'tool_result')) {
    out.push({
      role: 'tool',
      toolCallId: e.call_id,
      content: `<tool-output${attrs({ source: `session:${e.id}`, trust: 'tool-output' })}>\n${escapeXml(e.text)}\n</tool-output>`,
      blocks: [block.id],
    });
  }
  return out;
}

/** Stable sort by the design's order; within a slot, higher priority first, then source for determinism. */
export function orderBlocks(blocks: Block[]): Block[] {
  return [...blocks].sort((a, b) => {
    const d = ORDER[a.kind] - ORDER[b.kind];
    if (d !== 0) return d;
    if (a.kind === 'session_group') return (a.meta.groupIndex ?? 0) - (b.meta.groupIndex ?? 0);
    // Rules keep the order collect gave them (root first, deeper files later); then the pins.
    if (a.kind === 'agents_md' || b.kind === 'agents_md') return a.kind === b.kind ? 0 : a.kind === 'agents_md' ? -1 : 1;
    return b.priority - a.priority || a.source.localeCompare(b.source);
  });
}

export function render(blocks: Block[], model: string, maxOutputTokens: number): NeutralRequest {
  const ordered = orderBlocks(blocks);
  const system = ordered.filter((b) => b.kind === 'system_instructions');
  const hasTools = ordered.some((b) => b.kind === 'tool_definitions');
  const messages: RequestMessage[] = [];
  const userMessage = (parts: Block[], outer: boolean) => {
    if (parts.length === 0) return;
    const inner = parts.map(wrap).join('\n\n');
    const tasks = parts.filter((p) => p.kind === 'current_task');
    const context = parts.filter((p) => p.kind !== 'current_task');
    const content = outer
      ? [context.length ? `<working-context>\n${context.map(wrap).join('\n\n')}\n</working-context>` : '', ...tasks.map(wrap)].filter(Boolean).join('\n\n')
      : inner;
    messages.push({ role: 'user', content, blocks: parts.map((p) => p.id) });
  };
  userMessage(ordered.filter((b) => ORDER[b.kind] >= 3 && ORDER[b.kind] <= 5), true);
  for (const group of ordered.filter((b) => b.kind === 'session_group')) messages.push(...groupMessages(group));
  userMessage(ordered.filter((b) => ORDER[b.kind] >= 7), true);
  return {
    model,
    system: system.map((b) => b.text).join('\n\n'),
    messages,
    tools: hasTools ? TOOL_DEFINITIONS : [],
    maxOutputTokens,
  };
}
