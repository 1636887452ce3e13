import type { NeutralRequest } from '../chain/render';

type CacheControl = { cache_control?: { type: 'ephemeral' } };
const EPHEMERAL = { cache_control: { type: 'ephemeral' } } as const;

/**
 * The Anthropic messages wire shape: `system` is a top-level parameter; tool calls are content blocks. Prompt caching:
 * `cache_control` breakpoints (at most 3 of the API's 4) close the stable zones: the last tool definition, the
 * system text, and the stable head of the first user message (rules, pins, session summary; `cacheBreak`).
 */
export interface AnthropicBody {
  model: string;
  system?: ({ type: 'text'; text: string } & CacheControl)[];
  messages: { role: 'user' | 'assistant'; content: string | Record<string, unknown>[] }[];
  tools?: ({ name: string; description: string; input_schema: Record<string, unknown> } & CacheControl)[];
  max_tokens: number;
  stream?: boolean;
}

type Part = Record<string, unknown>;

export function toAnthropicBody(req: NeutralRequest, stream = false): AnthropicBody {
  const turns: { role: 'user' | 'assistant'; parts: Part[] }[] = [];
  const push = (role: 'user' | 'assistant', part: Part) => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.parts.push(part);
    else turns.push({ role, parts: [part] });
  };
  for (const m of req.messages) {
    if (m.role === 'tool') push('user', { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content });
    else if (m.toolCalls?.length) {
      if (m.content) push('assistant', { type: 'text', text: m.content });
      for (const c of m.toolCalls) push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) });
    } else if (m.cacheBreak && m.cacheBreak < m.content.length) {
      push(m.role, { type: 'text', text: m.content.slice(0, m.cacheBreak), ...EPHEMERAL });
      push(m.role, { type: 'text', text: m.content.slice(m.cacheBreak) });
    } else push(m.role, { type: 'text', text: m.content });
  }
  // The messages API wants a user turn first; a replayed session may open with the assistant.
  if (turns[0]?.role === 'assistant') turns.unshift({ role: 'user', parts: [{ type: 'text', text: '[Replayed session events follow.]' }] });
  const messages = turns.map((t) => ({
    role: t.role,
    content: t.parts.length === 1 && t.parts[0].type === 'text' ? (t.parts[0].text as string) : t.parts,
  }));
  const body: AnthropicBody = { model: req.model, messages, max_tokens: req.maxOutputTokens };
  if (req.system) body.system = [{ type: 'text', text: req.system, ...EPHEMERAL }];
  if (req.tools.length) body.tools = req.tools.map((t, i) => ({ name: t.name, description: t.description, input_schema: t.parameters, ...(i === req.tools.length - 1 ? EPHEMERAL : {}) }));
  if (stream) body.stream = true;
  return body;
}
