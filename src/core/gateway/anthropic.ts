import { isObject, str, textParts, type Json, type JsonObject, type TextSlot, type WireView } from './wire';

/**
 * Anthropic Messages (`POST /v1/messages`, `/v1/messages/count_tokens`). Slots: the user's text (a string content
 * or its `text` parts) and the text of each `tool_result` (a string, or its `text` parts: images are left alone).
 * Assistant turns (text, `tool_use`, `thinking` with its signature, `redacted_thinking`) give no slot. The system
 * block goes at the end of `system` (a string gets the text appended, a list one more `text` part), after the
 * agent's own cache breakpoints, so the prefix they cache is unchanged.
 */
export function anthropicView(body: JsonObject): WireView {
  const items: Json[] = Array.isArray(body.messages) ? body.messages : [];
  const toolNames = new Map<string, string>();
  const slots: TextSlot[] = [];
  let tail = 0;
  items.forEach((message, i) => {
    if (!isObject(message)) return;
    const at = `messages[${i}]`;
    if (message.role === 'assistant') {
      if (Array.isArray(message.content)) {
        for (const part of message.content) if (isObject(part) && part.type === 'tool_use' && typeof part.id === 'string') toolNames.set(part.id, str(part.name) ?? '');
      }
      return;
    }
    if (message.role !== 'user') return;
    tail = i;
    const user = (where: string, text: string, set: (t: string) => void): TextSlot => ({ kind: 'user_text', where, item: i, text, set });
    if (typeof message.content === 'string') {
      slots.push(...textParts(message, 'content', [], at, user));
      return;
    }
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, j) => {
      if (!isObject(part)) return;
      const where = `${at}.content[${j}]`;
      if (part.type === 'text' && typeof part.text === 'string') {
        slots.push(user(`${where}.text`, part.text, (t) => (part.text = t)));
      } else if (part.type === 'tool_result') {
        const callId = str(part.tool_use_id);
        const tool = callId ? toolNames.get(callId) : undefined;
        slots.push(...textParts(part, 'content', ['text'], where, (w, text, set) => ({ kind: 'tool_result', where: w, item: i, callId, tool, text, set })));
      }
    });
  });
  return {
    api: 'anthropic',
    body,
    model: str(body.model),
    stream: body.stream === true,
    items,
    tail,
    slots,
    conversationHint: isObject(body.metadata) ? str(body.metadata.user_id) : undefined,
    systemText: () => systemText(body.system),
    toolsJson: () => (body.tools === undefined ? '' : JSON.stringify(body.tools)),
    addSystemBlock(text) {
      if (typeof body.system === 'string') body.system = body.system === '' ? text : `${body.system}\n\n${text}`;
      else if (Array.isArray(body.system)) body.system.push({ type: 'text', text });
      else body.system = [{ type: 'text', text }];
    },
  };
}

function systemText(system: Json | undefined): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return system.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
}
