import type {
  Message,
  MessageCreateParams,
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ToolCall } from '../chain/render';
import { anthropicSdk } from '../../vendor/load';
import { HttpProvider, type HttpProviderOptions } from './http';
import { NO_KEY } from './openai';
import type { PreparedRequest, Provider, ProviderResult, SendOptions, StopReason } from './provider';

/**
 * Anthropic messages through the official SDK: `system` is the top-level parameter (anthropic-shape.ts), tool calls
 * are `tool_use` blocks whose JSON input streams in pieces. The SDK's retries are off; its fetch records the bytes.
 */

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

const STOPS: Record<string, StopReason> = { end_turn: 'end', stop_sequence: 'end', tool_use: 'tool_calls', max_tokens: 'max_tokens' };

export class AnthropicProvider extends HttpProvider implements Provider {
  readonly shape = 'anthropic' as const;

  constructor(options: HttpProviderOptions & { id?: string; stream?: boolean } = {}) {
    super(options, 'anthropic', ANTHROPIC_BASE_URL);
  }

  async send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult> {
    const wire = this.wireFor(request, options.signal);
    const { Anthropic } = anthropicSdk();
    const client = new Anthropic({
      apiKey: this.options.apiKey || NO_KEY,
      // The messages API documents `x-api-key`; this SDK release sends the key as a Bearer token, so name it too.
      defaultHeaders: this.options.apiKey ? { 'x-api-key': this.options.apiKey } : undefined,
      baseURL: this.options.baseUrl ?? ANTHROPIC_BASE_URL,
      maxRetries: 0,
      fetch: wire.fetch,
      logLevel: 'off',
    });
    // Passed untouched: the SDK serializes it with JSON.stringify, so the bytes stay the counted ones.
    const body = request.body as MessageCreateParams;
    try {
      if (!body.stream) {
        const { data, response } = await client.messages.create(body as MessageCreateParamsNonStreaming, { signal: wire.controller.signal }).withResponse();
        return whole(data, response.status, wire.sent, options);
      }
      const { data: stream, response } = await client.messages.create(body as MessageCreateParamsStreaming, { signal: wire.controller.signal }).withResponse();
      let text = '';
      let stop: string | undefined;
      let complete = false;
      const usage: NonNullable<ProviderResult['usage']> = {};
      const open = new Map<number, { id: string; name: string; json: string }>();
      const toolCalls: ToolCall[] = [];
      for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
        wire.touch();
        switch (event.type) {
          case 'message_start':
            usage.inputTokens = event.message.usage?.input_tokens;
            if (event.message.usage?.cache_read_input_tokens != null) usage.cachedTokens = event.message.usage.cache_read_input_tokens;
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') open.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              text += event.delta.text;
              options.onText?.(event.delta.text);
            } else if (event.delta.type === 'input_json_delta') {
              const call = open.get(event.index);
              if (call) call.json += event.delta.partial_json;
            }
            break;
          case 'content_block_stop': {
            const call = open.get(event.index);
            if (call) {
              const done = { id: call.id, name: call.name, arguments: call.json || '{}' };
              toolCalls.push(done);
              options.onToolCall?.(done);
              open.delete(event.index);
            }
            break;
          }
          case 'message_delta':
            stop = event.delta.stop_reason ?? stop;
            usage.outputTokens = event.usage?.output_tokens ?? usage.outputTokens;
            break;
          case 'message_stop':
            complete = true;
            break;
        }
      }
      wire.checkEnded(complete);
      return { text, toolCalls, stop: stopOf(stop, toolCalls), sent: wire.sent, status: response.status, usage };
    } catch (e) {
      throw wire.failure(e);
    } finally {
      wire.dispose();
    }
  }
}

function whole(data: Message, status: number, sent: string | undefined, options: SendOptions): ProviderResult {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of data.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
  }
  if (text) options.onText?.(text);
  for (const c of toolCalls) options.onToolCall?.(c);
  const usage = { inputTokens: data.usage?.input_tokens, outputTokens: data.usage?.output_tokens, ...(data.usage?.cache_read_input_tokens != null ? { cachedTokens: data.usage.cache_read_input_tokens } : {}) };
  return { text, toolCalls, stop: stopOf(data.stop_reason, toolCalls), sent, status, usage };
}

function stopOf(stop: string | null | undefined, calls: ToolCall[]): StopReason {
  if (calls.length > 0) return 'tool_calls';
  return (stop && STOPS[stop]) || 'other';
}
