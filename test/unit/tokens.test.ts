import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodingForModel, TiktokenCounter } from '../../src/core/tokens';

describe('tokens', () => {
  it('maps model families to encodings, and unknown families to the closest one, marked approximate', () => {
    assert.deepEqual(encodingForModel('gpt-4o-mini'), { encoding: 'o200k_base', approximate: false });
    assert.deepEqual(encodingForModel('openai/gpt-4.1'), { encoding: 'o200k_base', approximate: false });
    assert.deepEqual(encodingForModel('gpt-4-turbo'), { encoding: 'cl100k_base', approximate: false });
    assert.deepEqual(encodingForModel('gpt-3.5-turbo'), { encoding: 'cl100k_base', approximate: false });
    assert.deepEqual(encodingForModel('claude-sonnet-4-5'), { encoding: 'o200k_base', approximate: true });
    assert.deepEqual(encodingForModel('llama3', 'cl100k_base'), { encoding: 'cl100k_base', approximate: false });
    assert.throws(() => encodingForModel('x', 'p50k'), /Unknown encoding "p50k"/);
  });

  it('counts exactly with each encoding', () => {
    assert.equal(new TiktokenCounter('o200k_base').count('hello world'), 2);
    assert.equal(new TiktokenCounter('cl100k_base').count('hello world'), 2);
    assert.equal(new TiktokenCounter('o200k_base').count(''), 0);
    // The two encodings disagree on some text: the map matters.
    const text = 'paymentMethod is required — 400 BAD_REQUEST für ältere Clients';
    assert.notEqual(new TiktokenCounter('o200k_base').count(text), new TiktokenCounter('cl100k_base').count(text));
  });
});
