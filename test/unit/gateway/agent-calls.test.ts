import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallRecord } from '../../../src/core/gateway/record';
import { callDescription, callLabel, callNodes, callTooltip, lastCallStatus } from '../../../src/vscode/views/agentCalls';

/** The Agent calls view's words for a record, exactly (numbers use the narrow no-break space U+202F). */

const S = '\u202f';
const base = (over: Partial<CallRecord> = {}): CallRecord => ({
  id: 'c1',
  at: '2026-12-01T19:30:00.123Z',
  mode: 'control',
  api: 'anthropic',
  path: '/v1/messages',
  model: 'claude-sonnet-4-5',
  stream: false,
  status: 200,
  duration_ms: 42,
  usage: { input_tokens: 1234, cache_read_tokens: 1000, cache_write_tokens: 34, output_tokens: 56 },
  window: 200_000,
  tokens: { encoding: 'o200k_base', system: 10, tools: 20, rules_and_pins: 0, messages: 1204, tool_results: [], total: 1234 },
  changes: [],
  notes: [],
  pins: { present: [], added: [] },
  prefix_stable: null,
  received_prefix_stable: null,
  prefix_broken_by_gateway: false,
  received: {},
  sent_unchanged: true,
  ...over,
});
const change = (rule: CallRecord['changes'][number]['rule'], where: string) => ({ rule, where, kind: 'tool_result' as const, reason: `${rule} because`, replayed: false });

describe('Agent calls view: labels and tooltips', () => {
  it('a first call with no change: model, tokens / window, no change, the cache hit, first call', () => {
    const r = base();
    assert.equal(callLabel(r), 'claude-sonnet-4-5');
    assert.equal(callDescription(r), `1${S}234 / 200${S}000 · no change · cache hit 1${S}000 · first call`);
  });

  it('changes are counted with their kinds once each; the prefix says who changed it', () => {
    const r = base({ changes: [change('offloaded', 'messages[3].content[0]'), change('offloaded', 'messages[5].content[0]'), change('pins-added', 'system')], prefix_stable: true });
    assert.equal(callDescription(r), `1${S}234 / 200${S}000 · 3 changes: offloaded, pins-added · cache hit 1${S}000 · prefix held`);
    assert.equal(callDescription(base({ changes: [change('redacted', 'messages[0]')], prefix_stable: false, usage: { input_tokens: 9, cache_read_tokens: 0 } })), `1${S}234 / 200${S}000 · 1 change: redacted · no cache hit · prefix changed by the agent`);
    assert.equal(callDescription(base({ prefix_stable: false, prefix_broken_by_gateway: true, usage: undefined, window: undefined })), `1${S}234 tok · no change · prefix changed by the gateway`);
  });

  it('a call without a plan (an unparsable body) names its path and shows the error', () => {
    const r = base({ model: undefined, tokens: undefined, window: undefined, usage: undefined, error: 'bad json' });
    assert.equal(callLabel(r), '/v1/messages');
    assert.equal(callDescription(r), '– tok · no change · first call · error');
  });

  it('the tooltip lists the usage, the pins and every change with its reason', () => {
    const r = base({ changes: [change('offloaded', 'messages[3]')], pins: { present: ['a'], added: ['b'] }, prefix_stable: true });
    assert.equal(
      callTooltip(r),
      [
        '**claude\\-sonnet\\-4\\-5** — anthropic `/v1/messages`, control, HTTP 200',
        '',
        '2026-12-01T19:30:00.123Z · 42 ms',
        '',
        `Tokens sent: 1${S}234 / 200${S}000 (system 10, tools 20, messages 1${S}204; o200k_base)`,
        '',
        `Usage: input 1${S}234, cache read 1${S}000, cache write 34, output 56`,
        '',
        'Prefix: prefix held',
        '',
        'Pins: 1 present, re-added b',
        '',
        '1 change: offloaded:',
        '',
        '- offloaded messages\\[3\\]: offloaded because',
      ].join('\n'),
    );
  });

  it('rows are newest first and open what was sent; the status bar shows the last budget', () => {
    const nodes = callNodes([
      { file: 'call-20261201T193000123Z-000001-anthropic.json', record: base() },
      { file: 'call-20261201T193100123Z-000002-anthropic.json', record: base({ model: 'claude-opus-4-1', changes: [change('offloaded', 'x')] }) },
    ]);
    assert.deepEqual(nodes.map((n) => [n.label, n.icon, n.contextValue, n.command?.arguments]), [
      ['claude-opus-4-1', 'diff', 'agentCall', ['call-20261201T193100123Z-000002-anthropic.json']],
      ['claude-sonnet-4-5', 'pass', 'agentCall', ['call-20261201T193000123Z-000001-anthropic.json']],
    ]);
    assert.equal(lastCallStatus(base()), `$(pulse) 1${S}234 / 200${S}000`);
    assert.equal(lastCallStatus(undefined), '$(pulse) gateway');
  });
});
