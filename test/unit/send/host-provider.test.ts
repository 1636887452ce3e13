import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PreparedRequest, Provider, ProviderResult, SendOptions } from '../../../src/core/providers/provider';
import { smallerMaxInput } from '../../../src/core/send/loop';
import { counter } from '../helpers';
import { fakeClock } from '../providers/wire';
import { makeWorkspace, snapshotOf, sendThroughEngine } from './fixture';

/**
 * A provider shaped like the VS Code Language Model adapter: it declares the model's maxInputTokens, counts with
 * its own tokenizer (here 30% above ours), speaks the vscode-lm shape, and streams text.
 */
class HostModel implements Provider {
  readonly id = 'vscode-lm';
  readonly shape = 'vscode-lm' as const;
  readonly streams = true;
  readonly counts: number[] = [];
  readonly counted: string[] = [];
  readonly requests: PreparedRequest[] = [];
  constructor(readonly limits: { maxInputTokens: number }) {}

  async countTokens(request: PreparedRequest): Promise<number> {
    this.counted.push(request.serialized);
    const n = Math.ceil(counter.count(request.serialized) * 1.3);
    this.counts.push(n);
    return n;
  }

  async send(request: PreparedRequest, options: SendOptions): Promise<ProviderResult> {
    this.requests.push(request);
    options.onText?.('Answer from the editor model.');
    return { text: 'Answer from the editor model.', toolCalls: [], stop: 'end', sent: request.serialized };
  }
}

describe('a host provider (the vscode.lm adapter\'s contract)', () => {
  it('its maxInputTokens narrows the envelope, its own count is the final check, and an overshoot rebuilds once', async () => {
    const host = new HostModel({ maxInputTokens: 1900 });
    const outcome = await sendThroughEngine(snapshotOf(makeWorkspace()), { provider: host, model: 'copilot-gpt-4o', clock: fakeClock() });
    assert.equal(outcome.stopped, 'answered');
    const step = outcome.steps[0];
    // 1 900 − the policy's 1 000 margin = 900: narrower than the policy's 11 000.
    const first = host.counts[0];
    const firstFinal = counter.count(host.counted[0]);
    assert.ok(firstFinal <= 900 && first > 900, `ours ${firstFinal} fits 900, the host's ${first} does not`);
    assert.deepEqual(step.manifest.send.rebuilt, {
      reason: 'context length exceeded',
      max_input_before: 900,
      max_input_after: smallerMaxInput(900, firstFinal, 900, first),
      provider_limit: 900,
      provider_count: first,
    });
    assert.equal(host.counts.length, 2, 'counted before the first build was sent, and again after the rebuild');
    assert.ok(host.counts[1] <= 900, `after the rebuild the host counts ${host.counts[1]}`);
    assert.equal(step.manifest.send.provider_count, host.counts[1]);
    assert.equal(host.requests.length, 1, 'only the rebuilt request was sent');
    assert.equal(host.requests[0].serialized, step.assembly.serialized);
    assert.equal(step.manifest.budget.max_input, step.manifest.send.rebuilt?.max_input_after);
    const body = JSON.parse(host.requests[0].serialized);
    assert.equal(body.messages[0].role, 'user', 'no system role: the system text leads the first user message');
    assert.ok(body.messages[0].content[0].value.startsWith('You are a coding agent'));
    assert.match(step.trace, /Provider count\s+\d+ tokens/);
  });
});
