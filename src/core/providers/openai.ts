import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { ToolCall } from '../chain/render';
import { openaiSdk } from '../../vendor/load';
import { HttpProvider, type HttpProviderOptions } from './http';
import type { PreparedRequest, Provider, ProviderResult, SendOptions, StopReason } from './provider';

/**
 * OpenAI-compatible chat completions through the official SDK, with a configurable base URL: OpenAI, Ollama,
 * LM Studio, vLLM, llama.cpp server and OpenRouter. The SDK's own retries are off (retry.ts does them, honouring
 * Retry-After on an injected clock); its fetch is the recording one, so the bytes sent are the bytes counted.
 */

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Local servers need no key; the SDK insists on one, so they get this placeholder (never a real secret). */
export const NO_KEY = 'no-key';

const STOPS: Record<string, StopReason> = { stop: 'end', tool_calls: 'tool_calls', function_call: 'tool_calls', length: 'max_tokens' };

export class OpenAIProvider extends HttpProvider implements Provider {
  readonly shape = 'openai' as const;

  constructor(options: HttpProviderOptions & { id?: string; stream?: boolean } = {}) {
    super(options, 'openai', OPENAI_BASE_URL);
  }

  async send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult> {
    const wire = this.wireFor(request, options.signal);
    const { OpenAI } = openaiSdk();
    const client = new OpenAI({
      apiKey: this.options.apiKey || NO_KEY,
      baseURL: this.options.baseUrl ?? OPENAI_BASE_URL,
      maxRetries: 0,
      fetch: wire.fetch,
      logLevel: 'off',
    });
    // The body goes to the SDK untouched: it serializes it with JSON.stringify, so the bytes stay the counted ones.
    const body = request.body as ChatCompletionCreateParams;
    try {
      if (!body.stream) {
        const { data, response } = await client.chat.completions.create(body as ChatCompletionCreateParamsNonStreaming, { signal: wire.controller.signal }).withResponse();
        return this.whole(data, response.status, wire.sent, options);
      }
      const { data: stream, response } = await client.chat.completions.create(body as ChatCompletionCreateParamsStreaming, { signal: wire.controller.signal }).withResponse();
      let text = '';
      let finish: string | undefined;
      let usage: ProviderResult['usage'];
      const calls = new Map<number, ToolCall>();
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        wire.touch();
        if (chunk.usage) usage = usageOf(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const content = choice.delta?.content;
        if (content) {
          text += content;
          options.onText?.(content);
        }
        for (const part of choice.delta?.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: part.id ?? `call_${part.index}`, name: '', arguments: '' };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
          calls.set(part.index, call);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      wire.checkEnded(finish !== undefined);
      const toolCalls = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => ({ ...c, arguments: c.arguments || '{}' }));
      for (const c of toolCalls) options.onToolCall?.(c);
      return { text, toolCalls, stop: stopOf(finish, toolCalls), sent: wire.sent, status: response.status, usage };
    } catch (e) {
      throw wire.failure(e);
    } finally {
      wire.dispose();
    }
  }

  private whole(data: ChatCompletion, status: number, sent: string | undefined, options: SendOptions): ProviderResult {
    const message = data.choices?.[0]?.message;
    const text = message?.content ?? '';
    if (text) options.onText?.(text);
    const toolCalls: ToolCall[] = (message?.tool_calls ?? [])
      .filter((c) => c.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments || '{}' }));
    for (const c of toolCalls) options.onToolCall?.(c);
    const usage = data.usage ? usageOf(data.usage) : undefined;
    return { text, toolCalls, stop: stopOf(data.choices?.[0]?.finish_reason, toolCalls), sent, status, usage };
  }
}

function stopOf(finish: string | null | undefined, calls: ToolCall[]): StopReason {
  if (calls.length > 0) return 'tool_calls';
  return (finish && STOPS[finish]) || 'other';
}

/** Usage as OpenAI reports it; cached tokens (part of prompt_tokens) only when the server says. */
function usageOf(u: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } }): NonNullable<ProviderResult['usage']> {
  const cached = u.prompt_tokens_details?.cached_tokens;
  return { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens, ...(cached != null ? { cachedTokens: cached } : {}) };
}
