import { isObject, str, textParts, type Json, type JsonObject, type TextSlot, type WireView } from './wire';

/**
 * OpenAI Responses (`POST /v1/responses`). `input` is a string (one user text) or a list of items. Slots: the text
 * of `user` messages (`input_text` parts or a string content) and each `function_call_output` /
 * `custom_tool_call_output` (a string `output`, or its `input_text` / `output_text` parts). Items the model produced
 * (`reasoning` with its encrypted content, `function_call`, assistant messages) give no slot; the last user turn
 * starts after the last of them. The system block is appended to `instructions`.
 */

const OUTPUT_TYPES = ['function_call_output', 'custom_tool_call_output'];
const CALL_TYPES = ['function_call', 'custom_tool_call'];
const SENT_BY_CLIENT_ROLES = ['user', 'system', 'developer'];

export function responsesView(body: JsonObject): WireView {
  const slots: TextSlot[] = [];
  let items: Json[] = [];
  let tail = 0;
  if (typeof body.input === 'string') {
    slots.push({ kind: 'user_text', where: 'input', item: 0, text: body.input, set: (t) => (body.input = t) });
    items = [body.input];
  } else if (Array.isArray(body.input)) {
    items = body.input;
    const toolNames = new Map<string, string>();
    items.forEach((item, i) => {
      if (!isObject(item)) return;
      const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
      const at = `input[${i}]`;
      if (CALL_TYPES.includes(type)) {
        if (typeof item.call_id === 'string') toolNames.set(item.call_id, str(item.name) ?? '');
        tail = i + 1;
      } else if (OUTPUT_TYPES.includes(type)) {
        const callId = str(item.call_id);
        const tool = callId ? toolNames.get(callId) : undefined;
        slots.push(...textParts(item, 'output', ['input_text', 'output_text'], at, (where, text, set) => ({ kind: 'tool_result', where, item: i, callId, tool, text, set })));
      } else if (type === 'message' && SENT_BY_CLIENT_ROLES.includes(str(item.role) ?? '')) {
        if (item.role === 'user') slots.push(...textParts(item, 'content', ['input_text'], at, (where, text, set) => ({ kind: 'user_text', where, item: i, text, set })));
      } else {
        // reasoning, an assistant message, a built-in tool call: the model's, never changed.
        tail = i + 1;
      }
    });
  }
  return {
    api: 'responses',
    body,
    model: str(body.model),
    stream: body.stream === true,
    items,
    tail: Math.min(tail, Math.max(0, items.length - 1)),
    slots,
    conversationHint: str(body.prompt_cache_key),
    systemText: () => str(body.instructions) ?? '',
    toolsJson: () => (body.tools === undefined ? '' : JSON.stringify(body.tools)),
    addSystemBlock(text) {
      const current = str(body.instructions);
      body.instructions = current ? `${current}\n\n${text}` : text;
    },
  };
}
