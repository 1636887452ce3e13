import type { NeutralRequest } from '../chain/render';

/**
 * The VS Code Language Model API shape (vscode.lm), as plain data: the host adapter maps each part 1:1 onto
 * LanguageModelTextPart, LanguageModelToolCallPart and LanguageModelToolResultPart. The API has no system role,
 * so the system instructions lead the first user message; tool results travel in user messages.
 */
export type VscodeLmPart =
  | { type: 'text'; value: string }
  | { type: 'tool_call'; callId: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; callId: string; content: { type: 'text'; value: string }[] };

export interface VscodeLmBody {
  model: string;
  messages: { role: 'user' | 'assistant'; content: VscodeLmPart[] }[];
  tools?: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  maxOutputTokens: number;
}

export function toVscodeLmBody(req: NeutralRequest): VscodeLmBody {
  const messages: VscodeLmBody['messages'] = [];
  const push = (role: 'user' | 'assistant', part: VscodeLmPart) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(part);
    else messages.push({ role, content: [part] });
  };
  if (req.system) push('user', { type: 'text', value: req.system });
  for (const m of req.messages) {
    if (m.role === 'tool') push('user', { type: 'tool_result', callId: m.toolCallId ?? '', content: [{ type: 'text', value: m.content }] });
    else if (m.toolCalls?.length) {
      if (m.content) push('assistant', { type: 'text', value: m.content });
      for (const c of m.toolCalls) push('assistant', { type: 'tool_call', callId: c.id, name: c.name, input: JSON.parse(c.arguments) });
    } else push(m.role, { type: 'text', value: m.content });
  }
  const body: VscodeLmBody = { model: req.model, messages, maxOutputTokens: req.maxOutputTokens };
  if (req.tools.length) body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
  return body;
}
