import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/providers/errors';
import { OpenAIProvider } from '../../../src/core/providers/openai';
import { sendWithRetry } from '../../../src/core/providers/retry';
import { counter } from '../helpers';
import { assembled } from '../send/fixture';
import { fakeClock, openaiError, openaiText, openaiToolCalls, startServer, type WireServer } from './wire';

const KEY = 'sk-test-openai-0123456789abcdefghijklmnop';

describe('OpenAI-compatible provider (local server)', () => {
  const { assembly, request } = assembled('openai');
  let server: WireServer | undefined;
  const serve = async (...args: Parameters<typeof startServer>) => {
    await server?.close();
    server = await startServer(...args);
    return server;
  };
  after(() => server?.close());

  it('streams the answer and puts exactly the counted bytes on the wire, at the configured base URL', async () => {
    const s = await serve([{ sse: openaiText(['The cart TTL ', 'is 30 minutes', '.']) }]);
    const deltas: string[] = [];
    const provider = new OpenAIProvider({ apiKey: KEY, baseUrl: `${s.url}/v1` });
    const result = await provider.send(request, { onText: (d) => deltas.push(d) });
    assert.deepEqual(deltas, ['The cart TTL ', 'is 30 minutes', '.']);
    assert.equal(result.text, 'The cart TTL is 30 minutes.');
    assert.equal(result.stop, 'end');
    assert.equal(result.status, 200);
    assert.equal(s.received.length, 1);
    assert.equal(s.received[0].method, 'POST');
    assert.equal(s.received[0].path, '/v1/chat/completions');
    assert.equal(s.received[0].headers.authorization, `Bearer ${KEY}`);
    assert.equal(s.received[0].body, assembly.serialized, 'the bytes received are the previewed request');
    assert.equal(result.sent, assembly.serialized);
    assert.equal(assembly.manifest.budget.final, counter.count(s.received[0].body), 'final was counted on exactly those bytes');
    assert.equal(assembly.manifest.request_bytes, Buffer.byteLength(s.received[0].body));
  });

  it('assembles tool calls whose arguments arrive in pieces', async () => {
    const s = await serve([
      { sse: openaiToolCalls([{ id: 'call_a', name: 'read_document', args: { path: 'docs/runbook.md', heading: 'Rollback' } }, { id: 'call_b', name: 'search_workspace', args: { query: 'CartExpired' } }]) },
    ]);
    const seen: string[] = [];
    const result = await new OpenAIProvider({ apiKey: KEY, baseUrl: s.url }).send(request, { onToolCall: (c) => seen.push(c.id) });
    assert.equal(result.stop, 'tool_calls');
    assert.deepEqual(result.toolCalls, [
      { id: 'call_a', name: 'read_document', arguments: '{"path":"docs/runbook.md","heading":"Rollback"}' },
      { id: 'call_b', name: 'search_workspace', arguments: '{"query":"CartExpired"}' },
    ]);
    assert.deepEqual(seen, ['call_a', 'call_b']);
    assert.equal(result.text, '');
  });

  it('401: "check the API key for openai", and the key the server echoes is scrubbed', async () => {
    const s = await serve([openaiError(401, `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com.`, { code: 'invalid_api_key' })]);
    const error = await new OpenAIProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {}).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'auth');
    assert.equal(error.message, 'openai answered 401: check the API key for openai');
    assert.equal(error.details.providerMessage, 'Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com.');
    assert.ok(!JSON.stringify({ ...error.details, message: error.message }).includes(KEY));
  });

  it('429 with Retry-After: waits what the server asked on the injected clock, then succeeds', async () => {
    const s = await serve([{ ...openaiError(429, 'Rate limit reached for gpt-4o'), headers: { 'retry-after': '7' } }, { sse: openaiText(['ok']) }]);
    const clock = fakeClock();
    const result = await sendWithRetry(new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), request, { clock });
    assert.equal(result.text, 'ok');
    assert.deepEqual(clock.sleeps, [7000]);
    assert.deepEqual(
      result.attempts.map((a) => [a.attempt, a.outcome, a.status, a.waitMs, a.waitReason]),
      [
        [1, 'rate_limit', 429, 7000, 'Retry-After'],
        [2, 'ok', 200, undefined, undefined],
      ],
    );
    assert.equal(s.received.length, 2);
    assert.equal(s.received[1].body, assembly.serialized, 'the retry sends the same bytes');
  });

  it('5xx: exponential backoff (1 s, 2 s), and gives up after maxRetries with every attempt recorded', async () => {
    const s = await serve(() => openaiError(503, 'The server is overloaded'));
    const clock = fakeClock();
    const error = await sendWithRetry(new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), request, {
      clock,
      retry: { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 },
    }).then(
      () => assert.fail('should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'server');
    assert.equal(error.message, 'openai answered 503: server error (The server is overloaded)');
    assert.deepEqual(clock.sleeps, [1000, 2000]);
    assert.equal(s.received.length, 3);
  });

  it('a context-length error is recognised with its figures', async () => {
    const s = await serve([
      openaiError(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", {
        code: 'context_length_exceeded',
      }),
    ]);
    const error = await new OpenAIProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {}).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'context_length');
    assert.equal(error.details.limit, 8192);
    assert.equal(error.details.actual, 9000);
    assert.equal(error.retryable, false);
  });

  it('times out when nothing arrives for the idle timeout (injected timer), and cancels on abort', async () => {
    const s = await serve([{ hang: true }, { sse: openaiText(['Partial ', 'answer', '.']), partial: 3 }]);
    const clock = fakeClock();
    const provider = new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock, idleTimeoutMs: 45_000 });
    const pending = provider.send(request, {}).catch((e: unknown) => e);
    while (s.received.length < 1) await new Promise((r) => setImmediate(r));
    assert.deepEqual(clock.pending(), [{ ms: 45_000 }]);
    clock.fire();
    const timeout = await pending;
    assert.ok(timeout instanceof ProviderError);
    assert.equal(timeout.kind, 'timeout');
    assert.equal(timeout.message, 'openai: no answer for 45 s: timed out');

    const controller = new AbortController();
    const text: string[] = [];
    const cancelled = provider
      .send(request, {
        signal: controller.signal,
        onText: (t) => {
          text.push(t);
          if (text.length === 2) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    const error = await cancelled;
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'aborted');
    assert.equal(error.message, 'openai: cancelled');
    assert.deepEqual(text, ['Partial ', 'answer']);
  });

  it('refuses to send a body that differs from the counted bytes', async () => {
    const s = await serve([{ sse: openaiText(['never']) }]);
    const tampered = { ...request, serialized: request.serialized.replace('"stream":true', '"stream": true') };
    const error = await new OpenAIProvider({ apiKey: KEY, baseUrl: s.url }).send(tampered, {}).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'bytes_mismatch');
    assert.equal(s.received.length, 0, 'nothing reached the server');
  });

  it('says which server it cannot reach, without its credentials', async () => {
    const s = await serve([]);
    const url = s.url;
    await s.close();
    server = undefined;
    const error = await new OpenAIProvider({ apiKey: KEY, baseUrl: `${url.replace('http://', 'http://user:pw@')}/v1?key=${KEY}` }).send(request, {}).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'network');
    assert.match(error.message, new RegExp(`^openai: cannot reach ${url.replace(/[.]/g, '\\.')}/v1: `));
    assert.ok(!error.message.includes(KEY) && !error.message.includes('pw@'));
  });

  before(() => assert.equal(request.shape, 'openai'));
});
