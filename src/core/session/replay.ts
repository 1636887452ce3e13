import { attrs, escapeContent } from '../chain/escape';
import type { Block } from '../types';
import type { SessionEvent } from './event';

/**
 * A replayed session group as messages. Session text is data: a replayed user or assistant event keeps its role,
 * and its text goes inside a `<turn>` element that says where it came from (file, line, event id) and that it is
 * `trust="session"`, escaped like any workspace text, so no stored event can open or close an element of the
 * envelope or pass for harness text. Tool results are `<tool-output>` elements with the same provenance.
 *
 * The tool results follow their assistant tool_calls message directly, as the OpenAI API requires; a call that
 * never got a result is replayed before them as a text turn, never as a dangling call.
 */

/**
 * A replayed message: the shape of chain/render's RequestMessage, written out here because render imports this
 * file (an import back would be a cycle). The compiler checks that render can push it as a RequestMessage.
 */
export interface ReplayedMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
  blocks: string[];
}

/** The session file of a group block (`<file>#<first event id>`). */
function sessionFile(block: Block, events: SessionEvent[]): string {
  const suffix = `#${events[0]?.id ?? ''}`;
  return block.source.endsWith(suffix) ? block.source.slice(0, -suffix.length) : block.source;
}

function provenance(file: string, e: SessionEvent, extra: Record<string, string | undefined> = {}): string {
  return attrs({ source: file, line: e.line, id: e.id, ...extra, trust: 'session' });
}

export function turn(file: string, e: SessionEvent, text: string, extra: Record<string, string | undefined> = {}): string {
  return `<turn${provenance(file, e, { role: e.type === 'user' ? 'user' : 'assistant', ...extra })}>\n${escapeContent(text)}\n</turn>`;
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

export function replayMessages(block: Block): ReplayedMessage[] {
  const events: SessionEvent[] = block.meta.events ?? [];
  const file = sessionFile(block, events);
  const out: ReplayedMessage[] = [];
  const answered = new Set(events.filter((e) => e.type === 'tool_result').map((e) => e.call_id));
  for (const e of events) {
    if (e.type === 'user' || e.type === 'assistant') out.push({ role: e.type, content: turn(file, e, e.text), blocks: [block.id] });
    else if (e.type === 'tool_call' && !answered.has(e.call_id)) {
      out.push({ role: 'assistant', content: turn(file, e, e.text, { 'tool-call': e.tool ?? 'tool', note: 'tool call without a result' }), blocks: [block.id] });
    }
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
      content: `<tool-output${attrs({ source: file, line: e.line, id: e.id, trust: 'tool-output' })}>\n${escapeContent(e.text)}\n</tool-output>`,
      blocks: [block.id],
    });
  }
  return out;
}
