import { redact } from '../redact/apply';
import type { SessionEvent } from '../session/event';
import { hashText } from './decisions';
import type { Api, Json, JsonObject } from './wire';
import { isObject, str } from './wire';

/**
 * The agent's conversation as session events (session/event.ts, the `.context/session.jsonl` line format), from one
 * recorded call's request: user text, tool calls (tool name, id, arguments) and their results, assistant text, in
 * the request's order; system and developer text, thinking and reasoning items are left out. Every text is
 * redacted. An event's id is keyed by the conversation, the item's position in it and its content hash, so an agent
 * resending its history on every call adds each turn once: the caller appends only the ids it has not written yet.
 * The model's answer to the last request enters with the agent's next call (where the agent sends it back).
 * `known`: ids already written, left out.
 */

export const GATEWAY_SESSION_FILE = '.context/gateway/session.jsonl';

export function sessionEventsOf(api: Api, body: JsonObject, conversation: string, at?: string, known?: ReadonlySet<string>): SessionEvent[] {
  const items = api === 'responses' ? responsesItems(body) : Array.isArray(body.messages) ? body.messages : [];
  const out: SessionEvent[] = [];
  items.forEach((item, index) => {
    const parts = api === 'anthropic' ? anthropicItem(item) : api === 'responses' ? responsesItem(item) : chatItem(item);
    parts.forEach((p, k) => {
      const id = `gw-${conversation.slice(0, 16)}-${index}-${k}-${hashText(`${p.type}\u0000${p.call_id ?? ''}\u0000${p.text}`).slice(0, 12)}`;
      // A turn already in the feed (the agent resends its whole history on every call) is left out before its
      // text is redacted again.
      if (known?.has(id)) return;
      const text = redact(p.text).text;
      out.push({ id, ...(at ? { ts: at } : {}), type: p.type, text, ...(p.call_id !== undefined ? { call_id: p.call_id } : {}), ...(p.tool !== undefined ? { tool: p.tool } : {}) });
    });
  });
  return out;
}

/** The events whose ids are not in `seen`, in order; their ids are added to `seen`. */
export function newSessionEvents(events: SessionEvent[], seen: Set<string>): SessionEvent[] {
  const fresh: SessionEvent[] = [];
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    fresh.push(e);
  }
  return fresh;
}

type Part = Pick<SessionEvent, 'type' | 'text' | 'call_id' | 'tool'>;

/** Text of a string content, or of its parts of the given types, joined by a blank line. */
function textOf(content: Json | undefined, types: string[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .filter((p) => types.includes(str(p.type) ?? '') && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n\n');
}

const nonEmpty = (parts: Part[]) => parts.filter((p) => p.type === 'tool_call' || p.type === 'tool_result' || p.text.trim() !== '');

function anthropicItem(item: Json): Part[] {
  if (!isObject(item)) return [];
  const role = str(item.role);
  if (role !== 'user' && role !== 'assistant') return [];
  const content = item.content;
  if (typeof content === 'string') return nonEmpty([{ type: role, text: content }]);
  if (!Array.isArray(content)) return [];
  const parts: Part[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length > 0) parts.push({ type: role, text: text.join('\n\n') });
    text = [];
  };
  for (const c of content.filter(isObject)) {
    const type = str(c.type);
    if (type === 'text' && typeof c.text === 'string') text.push(c.text);
    else if (type === 'tool_use' && str(c.id)) {
      flush();
      parts.push({ type: 'tool_call', call_id: str(c.id), tool: str(c.name), text: JSON.stringify(c.input ?? {}) });
    } else if (type === 'tool_result' && str(c.tool_use_id)) {
      flush();
      parts.push({ type: 'tool_result', call_id: str(c.tool_use_id), text: textOf(c.content, ['text']) });
    }
  }
  flush();
  return nonEmpty(parts);
}

function responsesItems(body: JsonObject): Json[] {
  if (typeof body.input === 'string') return [{ type: 'message', role: 'user', content: body.input }];
  return Array.isArray(body.input) ? body.input : [];
}

function responsesItem(item: Json): Part[] {
  if (!isObject(item)) return [];
  const type = str(item.type) ?? (item.role !== undefined ? 'message' : undefined);
  if (type === 'message') {
    const role = str(item.role);
    if (role !== 'user' && role !== 'assistant') return [];
    return nonEmpty([{ type: role, text: textOf(item.content, ['input_text', 'output_text', 'text']) }]);
  }
  if ((type === 'function_call' || type === 'custom_tool_call') && str(item.call_id)) {
    return [{ type: 'tool_call', call_id: str(item.call_id), tool: str(item.name), text: str(item.arguments) ?? str(item.input) ?? '' }];
  }
  if ((type === 'function_call_output' || type === 'custom_tool_call_output') && str(item.call_id)) {
    return [{ type: 'tool_result', call_id: str(item.call_id), text: textOf(item.output, ['input_text', 'output_text', 'text']) }];
  }
  return [];
}

function chatItem(item: Json): Part[] {
  if (!isObject(item)) return [];
  const role = str(item.role);
  if (role === 'user') return nonEmpty([{ type: 'user', text: textOf(item.content, ['text']) }]);
  if (role === 'tool' && str(item.tool_call_id)) return [{ type: 'tool_result', call_id: str(item.tool_call_id), text: textOf(item.content, ['text']) }];
  if (role !== 'assistant') return [];
  const parts: Part[] = [{ type: 'assistant', text: textOf(item.content, ['text']) }];
  for (const call of Array.isArray(item.tool_calls) ? item.tool_calls.filter(isObject) : []) {
    const fn = isObject(call.function) ? call.function : {};
    if (str(call.id)) parts.push({ type: 'tool_call', call_id: str(call.id), tool: str(fn.name), text: str(fn.arguments) ?? '' });
  }
  return nonEmpty(parts);
}
