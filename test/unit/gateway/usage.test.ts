import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseUsage, usageOf } from '../../../src/core/gateway/usage';
import type { Api, Json } from '../../../src/core/gateway/wire';
import { defaultAnswer, sseText, USAGE, type Logged } from './fake-upstream';

/** The provider's usage, from JSON answers and from SSE streams split anywhere. */

const PATHS: Record<Api, string> = { anthropic: '/v1/messages', responses: '/v1/responses', chat: '/v1/chat/completions' };
const req = (api: Api, stream: boolean): Logged => ({ method: 'POST', path: PATHS[api], headers: {}, body: Buffer.alloc(0), json: { model: 'm', stream } });
const expected = (api: Api) => ({ input_tokens: USAGE.input_tokens, cache_read_tokens: USAGE.cache_read, ...(api === 'anthropic' ? { cache_write_tokens: USAGE.cache_write } : {}), output_tokens: USAGE.output_tokens });

describe('gateway usage', () => {
  for (const api of ['anthropic', 'responses', 'chat'] as const) {
    it(`${api}: from the JSON answer`, () => {
      assert.deepEqual(usageOf(api, defaultAnswer(req(api, false)).json as Json), expected(api));
    });
    it(`${api}: from the SSE stream, whatever the chunk boundaries, with every event counted`, () => {
      const events = defaultAnswer(req(api, true)).events!;
      const text = sseText(events).join('');
      for (const size of [1, 7, 64, text.length]) {
        const u = new SseUsage(api);
        for (let i = 0; i < text.length; i += size) u.feed(text.slice(i, i + size));
        u.end();
        assert.deepEqual(u.usage, expected(api), `chunks of ${size}`);
        assert.equal(u.events, events.length);
      }
    });
  }
});
