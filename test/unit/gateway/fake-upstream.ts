import * as http from 'node:http';

/**
 * A fake model provider on 127.0.0.1 for the gateway's tests: it logs every request (method, path, headers, body
 * bytes) and answers in the shape of the API the path names (Anthropic Messages, OpenAI Responses, Chat
 * Completions, the models list), as SSE when the body says `"stream": true`. A test can script the answer.
 */

export interface Logged {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json?: Record<string, unknown>;
}

export interface Answer {
  status?: number;
  /** A JSON answer. */
  json?: unknown;
  /** SSE events, each `{ event?, data }`; data objects are serialized. */
  events?: { event?: string; data: unknown }[];
  /**
   * Written after the first SSE event, before the others: the rest of the stream waits for it. A test resolves it
   * when its client has received the first event, which proves the stream is not buffered (a buffering proxy would
   * never hand that event on, and the test would time out), with no clock involved.
   */
  afterFirst?: Promise<void>;
  /** Exact answer bytes and headers (e.g. a gzip-encoded body). */
  raw?: { body: Buffer; headers: Record<string, string> };
}

export interface FakeUpstream {
  url: string;
  port: number;
  requests: Logged[];
  close(): Promise<void>;
}

export const USAGE = { input_tokens: 1234, cache_read: 1000, cache_write: 34, output_tokens: 56 };

/** How many text deltas a default streamed answer carries; each says `part N`. */
export const DELTAS = 40;

export function defaultAnswer(req: Logged, deltas = DELTAS): Answer {
  const stream = req.json?.stream === true;
  const model = String(req.json?.model ?? 'fake-model');
  const parts = Array.from({ length: deltas }, (_, i) => `part ${i} `);
  if (req.method === 'GET' && /\/models$/.test(req.path)) return { json: { object: 'list', data: [{ id: 'fake-model', object: 'model' }] } };
  if (/\/messages\/count_tokens$/.test(req.path)) return { json: { input_tokens: USAGE.input_tokens } };
  if (/\/messages$/.test(req.path)) {
    const usage = { input_tokens: USAGE.input_tokens, cache_read_input_tokens: USAGE.cache_read, cache_creation_input_tokens: USAGE.cache_write, output_tokens: USAGE.output_tokens };
    if (!stream) return { json: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: parts.join('') }], stop_reason: 'end_turn', usage } };
    return {
      events: [
        { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } } },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        ...parts.map((text) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } })),
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: USAGE.output_tokens } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    };
  }
  if (/\/responses$/.test(req.path)) {
    const usage = { input_tokens: USAGE.input_tokens, input_tokens_details: { cached_tokens: USAGE.cache_read }, output_tokens: USAGE.output_tokens, total_tokens: USAGE.input_tokens + USAGE.output_tokens };
    const message = { type: 'message', id: 'msg_fake', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: parts.join(''), annotations: [] }] };
    const response = { id: 'resp_fake', object: 'response', status: 'completed', model, output: [message], usage };
    if (!stream) return { json: response };
    return {
      events: [
        { event: 'response.created', data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } } },
        { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } } },
        ...parts.map((delta) => ({ event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: 'msg_fake', output_index: 0, content_index: 0, delta } })),
        { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item: message } },
        { event: 'response.completed', data: { type: 'response.completed', response } },
      ],
    };
  }
  if (/\/chat\/completions$/.test(req.path)) {
    const usage = { prompt_tokens: USAGE.input_tokens, prompt_tokens_details: { cached_tokens: USAGE.cache_read }, completion_tokens: USAGE.output_tokens, total_tokens: USAGE.input_tokens + USAGE.output_tokens };
    if (!stream) return { json: { id: 'chatcmpl_fake', object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: parts.join('') }, finish_reason: 'stop' }], usage } };
    const chunk = (delta: object, finish: string | null = null) => ({ id: 'chatcmpl_fake', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] });
    return {
      events: [
        { data: chunk({ role: 'assistant', content: '' }) },
        ...parts.map((content) => ({ data: chunk({ content }) })),
        { data: chunk({}, 'stop') },
        { data: { id: 'chatcmpl_fake', object: 'chat.completion.chunk', model, choices: [], usage } },
        { data: '[DONE]' },
      ],
    };
  }
  return { status: 404, json: { error: { message: `fake upstream: no route for ${req.method} ${req.path}` } } };
}

export function sseText(events: NonNullable<Answer['events']>): string[] {
  return events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
}

export function startFakeUpstream(script?: (req: Logged, n: number) => Answer | undefined): Promise<FakeUpstream> {
  const requests: Logged[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      let json: Record<string, unknown> | undefined;
      try {
        json = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      const logged: Logged = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], headers: req.headers, body, json };
      requests.push(logged);
      const answer = script?.(logged, requests.length - 1) ?? defaultAnswer(logged);
      if (answer.raw) {
        res.writeHead(answer.status ?? 200, answer.raw.headers);
        res.end(answer.raw.body);
        return;
      }
      if (answer.events) {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const [i, text] of sseText(answer.events).entries()) {
          res.write(text);
          if (i === 0 && answer.afterFirst) await answer.afterFirst;
        }
        res.end();
        return;
      }
      const text = JSON.stringify(answer.json ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(text);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}
