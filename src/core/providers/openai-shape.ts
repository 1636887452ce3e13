import type { NeutralRequest } from '../chain/render';

/** The OpenAI chat-completions wire shape (also spoken by Ollama, LM Studio, vLLM, llama.cpp and OpenRouter). */
export interface OpenAIBody {
  model: string;
  messages: Record<string, unknown>[];
  tools?: { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  max_tokens: number;
  stream?: boolean;
  /** Routes calls of one workspace to the same prompt cache: a hash of the workspace, never its path. */
  prompt_cache_key?: string;
}

export function toOpenAIBody(req: NeutralRequest, stream = false): OpenAIBody {
  const messages: Record<string, unknown>[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) {
    if (m.role === 'tool') messages.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls?.length) {
      messages.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      });
    } else messages.push({ role: m.role, content: m.content });
  }
  const body: OpenAIBody = { model: req.model, messages, max_tokens: req.maxOutputTokens };
  if (req.tools.length) body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  if (stream) body.stream = true;
  if (req.cacheKey) body.prompt_cache_key = req.cacheKey;
  return body;
}
