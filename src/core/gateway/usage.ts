import { isObject, type Api, type Json } from './wire';

/**
 * The provider's usage for one call, in one shape whatever the API: read from a JSON answer, or from an SSE stream
 * as it passes (only the pending line is kept: the stream itself is never buffered).
 */

export interface Usage {
  input_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  output_tokens?: number;
}

const num = (v: Json | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The usage object of an answer (or of the `message` / `response` it wraps), normalized. */
export function usageOf(api: Api, value: Json | undefined): Usage | undefined {
  if (!isObject(value)) return undefined;
  const u = isObject(value.usage) ? value.usage : isObject(value.message) && isObject(value.message.usage) ? value.message.usage : isObject(value.response) && isObject(value.response.usage) ? value.response.usage : undefined;
  if (!u) return undefined;
  const out: Usage = {};
  const put = (k: keyof Usage, v: number | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  if (api === 'anthropic') {
    put('input_tokens', num(u.input_tokens));
    put('cache_read_tokens', num(u.cache_read_input_tokens));
    put('cache_write_tokens', num(u.cache_creation_input_tokens));
    put('output_tokens', num(u.output_tokens));
  } else if (api === 'responses') {
    put('input_tokens', num(u.input_tokens));
    put('cache_read_tokens', isObject(u.input_tokens_details) ? num(u.input_tokens_details.cached_tokens) : undefined);
    put('output_tokens', num(u.output_tokens));
  } else {
    put('input_tokens', num(u.prompt_tokens));
    put('cache_read_tokens', isObject(u.prompt_tokens_details) ? num(u.prompt_tokens_details.cached_tokens) : undefined);
    put('output_tokens', num(u.completion_tokens));
  }
  return out;
}

/** Reads usage from an SSE stream fed chunk by chunk; counts the events it saw. */
export class SseUsage {
  usage: Usage = {};
  events = 0;
  private pending = '';
  private inEvent = false;
  constructor(private readonly api: Api) {}

  feed(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      this.line(text.slice(start, nl).replace(/\r$/, ''));
      start = nl + 1;
    }
    this.pending = text.slice(start);
    // A line this long is no usage line: drop it rather than hold it.
    if (this.pending.length > 1 << 20) this.pending = '';
  }

  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
    if (this.inEvent) this.events++;
    this.inEvent = false;
  }

  private line(line: string): void {
    if (line === '') {
      if (this.inEvent) this.events++;
      this.inEvent = false;
      return;
    }
    this.inEvent = true;
    if (!line.startsWith('data:') || !line.includes('"usage"')) return;
    try {
      const found = usageOf(this.api, JSON.parse(line.slice(5)) as Json);
      if (found) this.usage = { ...this.usage, ...found };
    } catch {
      // not JSON: not ours to judge
    }
  }
}
