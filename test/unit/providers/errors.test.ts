import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyHttpFailure, isContextLengthMessage, parseContextFigures, parseRetryAfter, ProviderError, safeUrl, scrub } from '../../../src/core/providers/errors';
import { backoffMs, DEFAULT_RETRY, sendWithRetry } from '../../../src/core/providers/retry';
import type { PreparedRequest, Provider, ProviderResult } from '../../../src/core/providers/provider';
import { fakeClock } from './wire';

const headers = (h: Record<string, string>) => (name: string) => h[name];
const NOW = Date.parse('2026-11-12T10:00:00Z');

describe('provider errors', () => {
  it('Retry-After: milliseconds header first, then seconds, then an HTTP date against the injected now', () => {
    assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), NOW), 1500);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '2' }), NOW), 2000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '0.5' }), NOW), 500);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Thu, 12 Nov 2026 10:00:30 GMT' }), NOW), 30_000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Thu, 12 Nov 2026 09:59:00 GMT' }), NOW), 0);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'soon' }), NOW), undefined);
    assert.equal(parseRetryAfter(headers({}), NOW), undefined);
  });

  it('recognises context-length errors of OpenAI, vLLM, Anthropic and llama.cpp, with their figures', () => {
    assert.deepEqual(parseContextFigures("This model's maximum context length is 8,192 tokens. However, you requested 10,000 tokens (8000 in the messages, 2000 in the completion)."), { limit: 8192, actual: 10000 });
    assert.deepEqual(parseContextFigures('prompt is too long: 210345 tokens > 200000 maximum'), { limit: 200000, actual: 210345 });
    assert.deepEqual(parseContextFigures('the request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it'), { limit: 8192, actual: 9000 });
    assert.deepEqual(parseContextFigures('input too long'), {});
    assert.equal(isContextLengthMessage('Please reduce the length of the messages.', 'context_length_exceeded'), true);
    assert.equal(isContextLengthMessage('the request exceeds the available context size', 'exceed_context_size_error'), true);
    assert.equal(isContextLengthMessage('model not found'), false);
  });

  it('classifies HTTP failures into kinds with messages that say what to do', () => {
    const f = (status: number, message: string, h: Record<string, string> = {}, code?: string) =>
      classifyHttpFailure({ provider: 'openai', status, headers: headers(h), message, code, now: NOW, secrets: ['sk-secret-key-123'] });
    assert.deepEqual([f(401, 'bad key sk-secret-key-123').kind, f(401, 'x').message], ['auth', 'openai answered 401: check the API key for openai']);
    assert.equal(f(401, 'bad key sk-secret-key-123').details.providerMessage, 'bad key [REDACTED]');
    assert.equal(f(403, 'forbidden').message, 'openai answered 403: check the API key for openai');
    assert.deepEqual([f(429, 'slow', { 'retry-after': '3' }).kind, f(429, 'slow', { 'retry-after': '3' }).details.retryAfterMs], ['rate_limit', 3000]);
    assert.equal(f(429, 'slow').message, 'openai answered 429: rate limited');
    assert.equal(f(502, 'bad gateway').kind, 'server');
    assert.equal(f(400, 'maximum context length is 10 tokens. However, your messages resulted in 20 tokens').kind, 'context_length');
    assert.equal(f(413, 'Request too large', {}, 'request_too_large').kind, 'bad_request');
    assert.deepEqual([f(404, 'model "gpt-5x" not found').kind, f(404, 'model "gpt-5x" not found').message], ['bad_request', 'openai answered 404: model "gpt-5x" not found']);
    assert.deepEqual([f(429, 'x').retryable, f(500, 'x').retryable, f(401, 'x').retryable, f(400, 'x').retryable], [true, true, false, false]);
  });

  it('scrubs secrets and credentials from what it shows', () => {
    assert.equal(scrub('key=abcd1234 and abcd1234 again', ['abcd1234', undefined, 'ab']), 'key=[REDACTED] and [REDACTED] again');
    assert.equal(safeUrl('https://user:pass@openrouter.ai/api/v1/?key=sk-1#x'), 'https://openrouter.ai/api/v1');
    assert.equal(safeUrl('not a url'), '(invalid URL)');
  });
});

describe('sendWithRetry', () => {
  const request = { serialized: '{}' } as PreparedRequest;
  /** A provider that fails with the given errors, then answers. */
  const scripted = (failures: ProviderError[], streamFirst = false): Provider & { calls: number } => ({
    id: 'test',
    shape: 'openai',
    streams: true,
    calls: 0,
    async send(_r, options): Promise<ProviderResult> {
      this.calls++;
      const next = failures.shift();
      if (next) {
        if (streamFirst) options.onText?.('partial ');
        throw next;
      }
      options.onText?.('answer');
      return { text: 'answer', toolCalls: [], stop: 'end', sent: '{}', status: 200 };
    },
  });

  it('backs off 1 s, 2 s, 4 s … capped, and stops after maxRetries', async () => {
    assert.deepEqual([0, 1, 2, 3, 6].map((n) => backoffMs(n, DEFAULT_RETRY)), [1000, 2000, 4000, 8000, 30000]);
    const clock = fakeClock();
    const p = scripted([1, 2, 3, 4].map(() => new ProviderError('test', 'server', 'test answered 500: server error (boom)', { status: 500 })));
    const error = await sendWithRetry(p, request, { clock }).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(p.calls, 4);
    assert.deepEqual(clock.sleeps, [1000, 2000, 4000]);
    assert.deepEqual((error as ProviderError & { attempts: { outcome: string }[] }).attempts.map((a) => a.outcome), ['server', 'server', 'server', 'server']);
  });

  it('never retries auth, bad requests or context-length errors', async () => {
    for (const kind of ['auth', 'bad_request', 'context_length', 'aborted', 'timeout'] as const) {
      const clock = fakeClock();
      const p = scripted([new ProviderError('test', kind, kind)]);
      await assert.rejects(sendWithRetry(p, request, { clock }), (e: unknown) => e instanceof ProviderError && e.kind === kind);
      assert.equal(p.calls, 1, kind);
      assert.deepEqual(clock.sleeps, []);
    }
  });

  it('does not retry once text has been streamed to the caller', async () => {
    const clock = fakeClock();
    const p = scripted([new ProviderError('test', 'server', 'test answered 500')], true);
    const text: string[] = [];
    await assert.rejects(sendWithRetry(p, request, { clock, onText: (t) => text.push(t) }));
    assert.deepEqual(text, ['partial ']);
    assert.equal(p.calls, 1);
  });

  it('a cancel during the wait ends the send as cancelled', async () => {
    const controller = new AbortController();
    const clock = { ...fakeClock(), sleep: (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((_resolve, reject) => (signal?.aborted ? reject(signal.reason) : signal?.addEventListener('abort', () => reject(signal.reason)))),
    };
    const p = scripted([new ProviderError('test', 'rate_limit', 'test answered 429', { retryAfterMs: 5000 })]);
    const pending = sendWithRetry(p, request, { clock, signal: controller.signal, onAttempt: () => controller.abort() });
    await assert.rejects(pending, (e: unknown) => e instanceof ProviderError && e.kind === 'aborted' && e.message === 'test: cancelled');
  });
});
