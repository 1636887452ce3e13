import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local HTTP servers on 127.0.0.1 that speak the providers' wire formats (OpenAI chat completions, Anthropic
 * messages), answering from a script. They record the exact bytes of each request body.
 */

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (errors, non-streaming answers). */
  json?: unknown;
  /** Server-sent events, written one by one. */
  sse?: string[];
  /** Never answer (timeouts, cancellation). */
  hang?: boolean;
  /** Write the first `partial` events, then keep the connection open. */
  partial?: number;
}

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WireServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startServer(script: Reply[] | ((req: Received, index: number) => Reply)): Promise<WireServer> {
  const received: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      const index = received.length - 1;
      const reply = typeof script === 'function' ? script(got, index) : script[index];
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no scripted reply for request ${index + 1}` } }));
        return;
      }
      if (reply.hang) {
        open.add(res);
        return;
      }
      if (reply.sse) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
        const events = reply.partial !== undefined ? reply.sse.slice(0, reply.partial) : reply.sse;
        for (const e of events) res.write(e);
        if (reply.partial !== undefined) open.add(res);
        else res.end();
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- OpenAI chat completions (SSE: `data: {chunk}` lines, then `data: [DONE]`) --------------------------------------

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1763000000, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export function openaiText(pieces: string[]): string[] {
  return [chunk({ role: 'assistant', content: '' }), ...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop'), 'data: [DONE]\n\n'];
}

/** Tool calls whose arguments arrive in two pieces each, as OpenAI streams them. */
export function openaiToolCalls(calls: { id: string; name: string; args: Record<string, unknown> }[], text = ''): string[] {
  const out = [chunk({ role: 'assistant', content: text || null })];
  calls.forEach((c, index) => {
    const args = JSON.stringify(c.args);
    const cut = Math.floor(args.length / 2);
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: args.slice(0, cut) } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }));
  });
  out.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  return out;
}

export const openaiError = (status: number, message: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  json: { error: { message, type: 'invalid_request_error', param: null, code: null, ...extra } },
});

// ---- Anthropic messages (SSE: `event: type` + `data: {event}`) -------------------------------------------------------

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const messageStart = () =>
  event('message_start', {
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1234, output_tokens: 1 } },
  });

export function anthropicText(pieces: string[]): string[] {
  return [
    messageStart(),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...pieces.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 42 } }),
    event('message_stop', {}),
  ];
}

export function anthropicToolUse(calls: { id: string; name: string; args: Record<string, unknown> }[], text = ''): string[] {
  const out = [messageStart()];
  let index = 0;
  if (text) {
    out.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    out.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }), event('content_block_stop', { index }));
    index++;
  }
  for (const c of calls) {
    const args = JSON.stringify(c.args);
    const cut = Math.floor(args.length / 2);
    out.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }));
    out.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args.slice(0, cut) } }));
    out.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args.slice(cut) } }));
    out.push(event('content_block_stop', { index }));
    index++;
  }
  out.push(event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }), event('message_stop', {}));
  return out;
}

export const anthropicStreamError = (type: string, message: string) => `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;

export const anthropicError = (status: number, type: string, message: string): Reply => ({ status, json: { type: 'error', error: { type, message } } });

// ---- an injected clock -----------------------------------------------------------------------------------------------

export interface FakeClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  setTimer(fn: () => void, ms: number): () => void;
  sleeps: number[];
  /** Timers still pending (not cancelled, not fired). */
  pending(): { ms: number }[];
  /** Fire every pending timer. */
  fire(): void;
}

export function fakeClock(start = Date.parse('2026-11-12T10:00:00Z')): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  const timers: { fn: () => void; ms: number; live: boolean }[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    setTimer(fn, ms) {
      const timer = { fn, ms, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    sleeps,
    pending: () => timers.filter((x) => x.live).map((x) => ({ ms: x.ms })),
    fire() {
      for (const x of timers.filter((y) => y.live)) {
        x.live = false;
        x.fn();
      }
    },
  };
}
