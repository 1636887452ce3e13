import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';
import { ProviderError } from '../../../src/core/providers/errors';
import { sendWithRetry } from '../../../src/core/providers/retry';
import { counter } from '../helpers';
import { assembled } from '../send/fixture';
import { anthropicError, anthropicStreamError, anthropicText, anthropicToolUse, fakeClock, startServer, type WireServer } from './wire';

const KEY = 'sk-ant-api03-test-0123456789abcdefghijklmnopqrstuv';

describe('Anthropic messages provider (local server)', () => {
  const { assembly, request } = assembled('anthropic', 'claude-haiku-4-5');
  let server: WireServer | undefined;
  const serve = async (...args: Parameters<typeof startServer>) => {
    await server?.close();
    server = await startServer(...args);
    return server;
  };
  after(() => server?.close());

  it('sends system as the top-level parameter, exactly the counted bytes, and streams text deltas', async () => {
    const s = await serve([{ sse: anthropicText(['Raise the cart ', 'TTL check to 30 minutes.']) }]);
    const deltas: string[] = [];
    const result = await new AnthropicProvider({ apiKey: KEY, baseUrl: s.url }).send(request, { onText: (d) => deltas.push(d) });
    assert.deepEqual(deltas, ['Raise the cart ', 'TTL check to 30 minutes.']);
    assert.equal(result.text, 'Raise the cart TTL check to 30 minutes.');
    assert.equal(result.stop, 'end');
    assert.deepEqual(result.usage, { inputTokens: 1234, outputTokens: 42 });
    const got = s.received[0];
    assert.equal(got.path, '/v1/messages');
    assert.equal(got.headers.authorization, `Bearer ${KEY}`, 'this SDK version sends the key as a bearer token');
    assert.equal(typeof got.headers['anthropic-version'], 'string');
    assert.equal(got.body, assembly.serialized, 'the bytes received are the previewed request');
    assert.equal(assembly.manifest.budget.final, counter.count(got.body), 'final was counted on exactly those bytes');
    const body = JSON.parse(got.body);
    assert.equal(body.system.length, 1, 'the system text is one block, marked as a cache breakpoint');
    assert.ok(body.system[0].text.startsWith('You are a coding agent'));
    assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
    assert.ok(body.messages.every((m: { role: string }) => m.role === 'user' || m.role === 'assistant'));
    assert.equal(body.stream, true);
  });

  it('assembles tool_use blocks from input_json_delta pieces, after the text that precedes them', async () => {
    const s = await serve([{ sse: anthropicToolUse([{ id: 'toolu_01', name: 'read_document', args: { path: 'docs/runbook.md', heading: 'Known errors' } }], 'Let me read the runbook.') }]);
    const result = await new AnthropicProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {});
    assert.equal(result.stop, 'tool_calls');
    assert.equal(result.text, 'Let me read the runbook.');
    assert.deepEqual(result.toolCalls, [{ id: 'toolu_01', name: 'read_document', arguments: '{"path":"docs/runbook.md","heading":"Known errors"}' }]);
  });

  it('401 and 403: "check the API key for anthropic"', async () => {
    for (const status of [401, 403]) {
      const s = await serve([anthropicError(status, status === 401 ? 'authentication_error' : 'permission_error', `invalid x-api-key ${KEY}`)]);
      const error = await new AnthropicProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {}).catch((e: unknown) => e);
      assert.ok(error instanceof ProviderError);
      assert.equal(error.kind, 'auth');
      assert.equal(error.message, `anthropic answered ${status}: check the API key for anthropic`);
      assert.equal(error.details.providerMessage, 'invalid x-api-key [REDACTED]');
    }
  });

  it('429 with an HTTP-date Retry-After, then 529 overloaded with backoff, then success', async () => {
    const clock = fakeClock(Date.parse('2026-11-12T10:00:00Z'));
    const s = await serve([
      { ...anthropicError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'), headers: { 'retry-after': 'Thu, 12 Nov 2026 10:00:03 GMT' } },
      anthropicError(529, 'overloaded_error', 'Overloaded'),
      { sse: anthropicText(['done']) },
    ]);
    const result = await sendWithRetry(new AnthropicProvider({ apiKey: KEY, baseUrl: s.url, clock }), request, { clock });
    assert.equal(result.text, 'done');
    assert.deepEqual(clock.sleeps, [3000, 2000]);
    assert.deepEqual(
      result.attempts.map((a) => [a.outcome, a.status, a.waitReason]),
      [
        ['rate_limit', 429, 'Retry-After'],
        ['server', 529, 'backoff'],
        ['ok', 200, undefined],
      ],
    );
    assert.ok(s.received.every((r) => r.body === assembly.serialized));
  });

  it('a Retry-After longer than the policy allows is reported, not waited for', async () => {
    const clock = fakeClock();
    const s = await serve([{ ...anthropicError(429, 'rate_limit_error', 'slow down'), headers: { 'retry-after': '3600' } }]);
    const error = await sendWithRetry(new AnthropicProvider({ apiKey: KEY, baseUrl: s.url, clock }), request, { clock }).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.message, 'anthropic answered 429: rate limited (Retry-After 3600 s)');
    assert.deepEqual(clock.sleeps, []);
  });

  it('"prompt is too long" is a context-length error with its figures', async () => {
    const s = await serve([anthropicError(400, 'invalid_request_error', 'prompt is too long: 210345 tokens > 200000 maximum')]);
    const error = await new AnthropicProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {}).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'context_length');
    assert.deepEqual([error.details.limit, error.details.actual], [200000, 210345]);
  });

  it('an error event in the middle of a stream is not retried once text reached the caller', async () => {
    const clock = fakeClock();
    const events = anthropicText(['First half']);
    const broken = [...events.slice(0, 4), anthropicStreamError('overloaded_error', 'Overloaded')];
    const s = await serve([{ sse: broken }, { sse: anthropicText(['would duplicate']) }]);
    const text: string[] = [];
    const error = await sendWithRetry(new AnthropicProvider({ apiKey: KEY, baseUrl: s.url, clock }), request, { clock, onText: (t) => text.push(t) }).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.kind, 'server');
    assert.deepEqual(text, ['First half']);
    assert.equal(s.received.length, 1);
  });

  it('a stream cut before message_stop is an error, not a silent half answer', async () => {
    const s = await serve([{ sse: anthropicText(['cut']).slice(0, 4) }]);
    const error = await new AnthropicProvider({ apiKey: KEY, baseUrl: s.url }).send(request, {}).catch((e: unknown) => e);
    assert.ok(error instanceof ProviderError);
    assert.equal(error.message, 'anthropic: the stream ended before the answer was complete');
  });
});
