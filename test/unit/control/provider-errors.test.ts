import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelBelongsElsewhere } from '../../../src/core/providers/models';
import { humanProviderError } from '../../../src/core/providers/errors';

describe('provider errors for people', () => {
  it('no key: one sentence and "Set API Key"', () => {
    assert.deepEqual(humanProviderError('no API key for anthropic: run "Context Control: Set API Key", or set contextControl.baseUrl for a local server.'), {
      text: 'No API key for anthropic. Set one, or set contextControl.baseUrl for a local server.',
      action: 'Set API Key',
    });
    assert.deepEqual(humanProviderError('openai answered 401: check the API key for openai'), { text: 'openai refused the API key (401).', action: 'Set API Key' });
  });

  it('unknown model: names it and offers "Select model"', () => {
    assert.deepEqual(humanProviderError('openai answered 404: The model `gpt-5x` does not exist or you do not have access to it.'), { text: 'openai does not know the model "gpt-5x".', action: 'Select model' });
    assert.deepEqual(humanProviderError('anthropic answered 404: model: gpt-4o'), { text: 'anthropic does not know the model "gpt-4o".', action: 'Select model' });
  });

  it('network: the host and the cause in words, never the raw message twice', () => {
    const raw = 'openai: cannot reach https://api.openai.com/v1: getaddrinfo ENOTFOUND api.openai.com: getaddrinfo ENOTFOUND api.openai.com';
    assert.deepEqual(humanProviderError(raw), { text: 'Cannot reach https://api.openai.com/v1: the host name does not resolve.', action: 'Check network / base URL' });
    assert.deepEqual(humanProviderError('openai: cannot reach http://127.0.0.1:9/v1: connect ECONNREFUSED 127.0.0.1:9'), { text: 'Cannot reach http://127.0.0.1:9/v1: the connection was refused.', action: 'Check network / base URL' });
    assert.deepEqual(humanProviderError('anthropic: no answer for 60 s: timed out'), { text: 'Cannot reach anthropic: no answer (timed out).', action: 'Check network / base URL' });
  });

  it('anything else: its first line, repeated parts said once', () => {
    assert.deepEqual(humanProviderError('openai answered 429: rate limited\nmore'), { text: 'openai answered 429: rate limited' });
    assert.deepEqual(humanProviderError('x: boom: boom'), { text: 'x: boom' });
  });

  it('knows a model that belongs to another provider', () => {
    assert.deepEqual([modelBelongsElsewhere('anthropic', 'gpt-4o'), modelBelongsElsewhere('anthropic', 'o4-mini'), modelBelongsElsewhere('anthropic', 'claude-sonnet-4-0')], [true, true, false]);
    assert.deepEqual([modelBelongsElsewhere('openai', 'claude-3-5-haiku-latest'), modelBelongsElsewhere('openai', 'llama3'), modelBelongsElsewhere('dry-run', 'gpt-4o')], [true, false, false]);
  });
});
