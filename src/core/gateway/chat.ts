import { isObject, str, textParts, type Json, type JsonObject, type TextSlot, type WireView } from './wire';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`). Slots: `user` messages' text (a string content or its
 * `text` parts) and `tool` messages' content (a string or its `text` parts). Assistant messages (their
 * `tool_calls` and ids included) give no slot; the last user turn starts after the last assistant message. The
 * system block goes into the first message when it is a system (or developer) message, else in a new system
 * message put first: the other messages keep their order.
 */
export function chatView(body: JsonObject): WireView {
  const items: Json[] = Array.isArray(body.messages) ? body.messages : [];
  const toolNames = new Map<string, string>();
  const slots: TextSlot[] = [];
  let tail = 0;
  items.forEach((message, i) => {
    if (!isObject(message)) return;
    const at = `messages[${i}]`;
    if (message.role === 'assistant') {
      tail = i + 1;
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          if (isObject(call) && typeof call.id === 'string') toolNames.set(call.id, isObject(call.function) ? (str(call.function.name) ?? '') : '');
        }
      }
    } else if (message.role === 'tool') {
      const callId = str(message.tool_call_id);
      const tool = callId ? toolNames.get(callId) : undefined;
      slots.push(...textParts(message, 'content', ['text'], at, (where, text, set) => ({ kind: 'tool_result', where, item: i, callId, tool, text, set })));
    } else if (message.role === 'user') {
      slots.push(...textParts(message, 'content', ['text'], at, (where, text, set) => ({ kind: 'user_text', where, item: i, text, set })));
    }
  });
  return {
    api: 'chat',
    body,
    model: str(body.model),
    stream: body.stream === true,
    items,
    tail: Math.min(tail, Math.max(0, items.length - 1)),
    slots,
    conversationHint: str(body.user),
    systemText: () => {
      const first = items[0];
      if (!isObject(first) || (first.role !== 'system' && first.role !== 'developer')) return '';
      return typeof first.content === 'string' ? first.content : Array.isArray(first.content) ? first.content.map((p) => (isObject(p) ? (str(p.text) ?? '') : '')).join('\n') : '';
    },
    toolsJson: () => (body.tools === undefined ? '' : JSON.stringify(body.tools)),
    addSystemBlock(text) {
      const first = items[0];
      if (isObject(first) && (first.role === 'system' || first.role === 'developer')) {
        if (typeof first.content === 'string') {
          first.content = `${first.content}\n\n${text}`;
          return;
        }
        if (Array.isArray(first.content)) {
          first.content.push({ type: 'text', text });
          return;
        }
      }
      items.unshift({ role: 'system', content: text });
      if (!Array.isArray(body.messages)) body.messages = items;
    },
  };
}
