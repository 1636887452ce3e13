import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { AnthropicProvider } from '../../../src/core/providers/anthropic';
import { DryRunProvider } from '../../../src/core/providers/dry-run';
import { OpenAIProvider } from '../../../src/core/providers/openai';
import { smallerMaxInput } from '../../../src/core/send/loop';
import { counter } from '../helpers';
import { anthropicText, anthropicToolUse, fakeClock, openaiError, openaiText, openaiToolCalls, startServer, type WireServer } from '../providers/wire';
import { makeWorkspace, snapshotOf, sendThroughEngine } from './fixture';

const KEY = 'sk-test-loop-0123456789abcdefghijklmnop';
const servers: WireServer[] = [];
async function serve(...args: Parameters<typeof startServer>): Promise<WireServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}
after(async () => {
  for (const s of servers) await s.close();
});

const body = (s: WireServer, i: number) => JSON.parse(s.received[i].body) as { messages: Record<string, unknown>[] };

describe('send loop: a read-only tool loop that rebuilds and re-checks every step', () => {
  it('runs read_document, feeds the result back as a session group, and every request is the counted bytes', async () => {
    const root = makeWorkspace();
    const s = await serve([
      { sse: openaiToolCalls([{ id: 'call_1', name: 'read_document', args: { path: 'docs/runbook.md', heading: 'Known errors' } }], 'Checking the runbook.') },
      { sse: openaiText(['The TTL is 30 minutes; ', 'the controller expires carts at 10.']) },
    ]);
    const clock = fakeClock();
    const text: string[] = [];
    const outcome = await sendThroughEngine(snapshotOf(root), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), clock, onText: (t) => text.push(t) });
    assert.equal(outcome.stopped, 'answered');
    assert.equal(outcome.answer, 'The TTL is 30 minutes; the controller expires carts at 10.');
    assert.deepEqual(text, ['Checking the runbook.', 'The TTL is 30 minutes; ', 'the controller expires carts at 10.']);
    assert.equal(s.received.length, 2);
    outcome.steps.forEach((step, i) => {
      assert.equal(s.received[i].body, step.assembly.serialized, `step ${i + 1}: bytes received = the counted request`);
      assert.equal(step.manifest.budget.final, counter.count(s.received[i].body), `step ${i + 1}: final counted on those bytes`);
      assert.ok(step.manifest.budget.final <= step.manifest.budget.max_input);
      assert.equal(step.manifest.send.sent_matches_request, true);
      assert.equal(step.manifest.send.step, i + 1);
    });
    // The second request carries the call and its result, as the chain replays a session group.
    const second = body(s, 1).messages;
    const call = second.find((m) => Array.isArray(m.tool_calls)) as { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
    assert.deepEqual(call.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]), [['call_1', 'read_document', '{"path":"docs/runbook.md","heading":"Known errors"}']]);
    const result = second.find((m) => m.role === 'tool') as { tool_call_id: string; content: string };
    assert.equal(result.tool_call_id, 'call_1');
    assert.match(result.content, /^<tool-output source="session" id="loop-s1-result1" trust="tool-output">\ndocs\/runbook\.md, section "Known errors"\n\n## Known errors\n/);
    assert.match(result.content, /`CartExpired`: the cart TTL is 30 minutes\./);
    assert.equal(second[second.length - 1].role, 'user', 'the task stays last');
    assert.deepEqual(outcome.events.map((e) => [e.type, e.id, e.call_id]), [
      ['assistant', 'loop-s1-text', undefined],
      ['tool_call', 'loop-s1-call1', 'call_1'],
      ['tool_result', 'loop-s1-result1', 'call_1'],
    ]);
    assert.deepEqual(outcome.steps[1].manifest.send.carried, [
      { tool: 'read_document', call_id: 'call_1', source: 'docs/runbook.md#Known errors', ok: true, original_tokens: outcome.steps[0].results[0].originalTokens, tokens: outcome.steps[0].results[0].tokens, verdict: 'kept', path: undefined },
    ]);
    assert.deepEqual(
      outcome.steps[1].manifest.selected.filter((d) => d.via === 'read_document').map((d) => [d.source, d.reason, d.heading]),
      [['docs/runbook.md', 'read_document: section "Known errors" fetched on demand', 'Known errors']],
      "read_document's decision is in the next call's manifest",
    );
    assert.match(outcome.trace, /════ STEP 1 ════[\s\S]*FINAL REQUEST[\s\S]*SEND \(step 1 of at most 6\)[\s\S]*→ read_document \{"path":"docs\/runbook.md","heading":"Known errors"\}/);
    assert.match(outcome.trace, /════ STEP 2 ════[\s\S]*Tool results carried\s+read_document\s+docs\/runbook.md#Known errors\s+KEPT/);
    assert.match(outcome.trace, /SEND RESULT\n {2}the model answered after 2 steps \(limit 6\)\n$/);
  });

  it('re-checks the budget on every step: a big tool result makes the next request leave out the oldest session event', async () => {
    const policy = 'envelope: { window: 3300, output_reserve: 1000, margin: 200 }\nzones: { tool_results: { max_tokens: 1500 } }\noffload: { per_result_tokens: 20000, aggregate_tokens: 20000, preview_chars: 100 }\n';
    const session = [
      { id: 'e1', type: 'user', text: 'Earlier: we looked at the checkout latency dashboards for an hour. ' + 'Latency was flat at 90ms. '.repeat(40) },
      { id: 'e2', type: 'assistant', text: 'Noted: latency is not the issue. ' + 'The p99 stayed under 120ms. '.repeat(40) },
    ];
    const log = Array.from({ length: 400 }, (_, i) => `2026-11-12T08:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z ${i % 50 === 7 ? 'ERROR' : 'INFO '} [req=r${1000 + i}] POST /v1/checkout ${i % 50 === 7 ? 'failed: CartExpired cart=' + i : '201 in ' + (80 + (i % 9)) + 'ms'}`).join('\n');
    const root = makeWorkspace({ '.context/session.jsonl': session.map((e) => JSON.stringify(e)).join('\n') + '\n', 'reports/checkout-errors.txt': log + '\n' }, policy);
    const s = await serve([{ sse: openaiToolCalls([{ id: 'call_big', name: 'search_workspace', args: { pattern: 'POST /v1/checkout' } }]) }, { sse: openaiText(['Done.']) }]);
    const clock = fakeClock();
    const outcome = await sendThroughEngine(snapshotOf(root, policy), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), clock });
    assert.equal(outcome.stopped, 'answered');
    const [one, two] = outcome.steps;
    assert.equal(one.manifest.budget.max_input, 2100);
    assert.equal(two.manifest.budget.max_input, 2100);
    assert.deepEqual(one.manifest.degraded, [], 'step 1 fits as built');
    // The search came back over the 1 500-token zone cap: trimmed, its full text kept in the offload store.
    const admitted = one.results[0];
    assert.match(admitted.trimmed?.reference ?? '', /^\.context\/offload\/search_workspace-call_big-[0-9a-f]{12}\.txt$/);
    assert.equal(fs.readFileSync(path.join(root, admitted.trimmed?.reference ?? ''), 'utf8'), admitted.outcome.text, 'the full result is stored whole');
    assert.ok(admitted.tokens <= 1500, `admitted ${admitted.tokens}`);
    // Step 2 was rebuilt from scratch and re-checked. Fill places by exact cost: the session's newest
    // groups first (the tool call with its big result, then e2), and the oldest stored event no longer fits, so fill
    // leaves it out with its figures; the ladder (which trimmed the log and dropped e1 when fill placed by a 3.6
    // estimate and overshot) has nothing left to do.
    assert.deepEqual(two.manifest.degraded, []);
    const omittedGroups = two.manifest.rejected.filter((d) => d.kind === 'session_group');
    assert.deepEqual(omittedGroups.map((d) => [d.source, d.tokens, d.events]), [['.context/session.jsonl#e1', 376, 1]]);
    // The room left varies by a few tokens from run to run: the carried result names its offload file, whose hash
    // tokenizes differently each time. It is always short of the 376 tokens e1 needs.
    const room = /^session events omitted: at least 376 tokens needed, (\d+) left of the budget for the recent session events \(after the protected zone and an index line for each candidate document\)$/.exec(omittedGroups[0].reason);
    assert.ok(room && Number(room[1]) < 376, omittedGroups[0].reason);
    assert.deepEqual(two.manifest.session, { stored: 4, kept_raw: 3, compacted: 0, omitted: 1, store: { kind: 'workspace', path: '.context/session.jsonl' } });
    assert.ok(two.manifest.budget.final <= 2100);
    assert.ok(s.received[1].body.includes('loop-s1-result1'), 'the newest group (the tool call and its result) survived');
    assert.equal(two.manifest.budget.final, counter.count(s.received[1].body));
    assert.ok(s.received[1].body.includes('[trimmed: '), 'the trimmed result is what was sent');
    assert.deepEqual(two.manifest.send.carried_trimmed.map((d) => [d.source, d.reference, d.tool]), [['search:"POST /v1/checkout"', admitted.trimmed?.reference, 'search_workspace']]);
  });

  it('offloads a result over the per-result limit, and inspect_offloaded reads it back on the next step', async () => {
    const policy = 'offload: { per_result_tokens: 300, aggregate_tokens: 10000, preview_chars: 40 }\n';
    const root = makeWorkspace({ 'docs/catalog.md': '# Catalog\n\n' + Array.from({ length: 120 }, (_, i) => `- SKU-${1000 + i}: item ${i}, ${i % 7 === 0 ? 'discontinued' : 'in stock'}`).join('\n') + '\n' }, policy);
    const s = await serve((req, i) => {
      if (i === 0) return { sse: openaiToolCalls([{ id: 'c1', name: 'search_workspace', args: { pattern: 'SKU-' } }]) };
      if (i === 1) {
        const offloaded = /the full result is at (\.context\/offload\/[^ ]+\.txt)\. /.exec(req.body)?.[1] ?? 'missing';
        return { sse: openaiToolCalls([{ id: 'c2', name: 'inspect_offloaded', args: { path: offloaded, op: 'grep', pattern: 'SKU-10(07|49)' } }]) };
      }
      return { sse: openaiText(['SKU-1007 and SKU-1049 are discontinued.']) };
    });
    const clock = fakeClock();
    const before = fs.readdirSync(root, { recursive: true }).length;
    const outcome = await sendThroughEngine(snapshotOf(root, policy), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), clock });
    assert.equal(outcome.stopped, 'answered');
    assert.equal(s.received.length, 3);
    const file = outcome.steps[0].results[0].offloaded ?? '';
    assert.match(file, /^\.context\/offload\/search_workspace-c1-[0-9a-f]{12}\.txt$/);
    assert.ok(fs.existsSync(path.join(root, file)));
    assert.equal(fs.readdirSync(root, { recursive: true }).length, before + 4, 'only the offload folder, its marker, its .gitignore and the result were added');
    assert.ok(!s.received[1].body.includes('SKU-1030: item 30'), 'the full payload is not in the context');
    const n = outcome.steps[0].results[0].originalTokens;
    const notice = (body(s, 1).messages.filter((m) => m.role === 'tool') as { content: string }[])[0].content;
    assert.equal(
      notice,
      '<tool-output source="session" id="loop-s1-result1" trust="tool-output">\n' +
        `[offloaded: the result of search_workspace (${n} tokens) is not in this context (${n} tokens > per_result_tokens 300); the full result is at ${file}. ` +
        'The preview below is for navigation only: inspect the file with inspect_offloaded (head, grep, count, shape) rather than reading it whole.]\n' +
        'preview, first 40 characters:\n120 matching lines in 1 file for "SKU-" \npreview, last 40 characters:\nmd:52: - SKU-1049: item 49, discontinued\n</tool-output>',
    );
    assert.deepEqual(outcome.steps[1].manifest.offloaded.map((o) => [o.source, o.path, o.tool]), [['search:"SKU-"', file, 'search_workspace']]);
    const third = body(s, 2).messages.filter((m) => m.role === 'tool') as { content: string }[];
    assert.ok(third[1].content.includes(`${file} (grep):\n`), third[1].content);
    assert.match(third[1].content, /\n {5}9: docs\/catalog\.md:10: - SKU-1007: item 7, discontinued\n/);
    assert.match(third[1].content, /\n {4}51: docs\/catalog\.md:52: - SKU-1049: item 49, discontinued\n/);
    assert.match(third[1].content, /\n2 matching lines\n<\/tool-output>$/);
  });

  it('stops at the step limit when the model keeps asking for tools, and says so', async () => {
    const root = makeWorkspace();
    const s = await serve((_req, i) => ({ sse: openaiToolCalls([{ id: `c${i}`, name: 'search_workspace', args: { pattern: 'CartExpired' } }]) }));
    const clock = fakeClock();
    const notices: string[] = [];
    const outcome = await sendThroughEngine(snapshotOf(root), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), clock, maxSteps: 2, onNotice: (m) => notices.push(m) });
    assert.equal(outcome.stopped, 'step_limit');
    assert.equal(s.received.length, 2);
    assert.deepEqual(notices, ['step limit 2 reached: the model still asked for search_workspace; not run']);
    assert.match(outcome.trace, /the step limit was reached while the model still asked for tools \(their calls were not run\) after 2 steps \(limit 2\)/);
    assert.equal(outcome.events.filter((e) => e.type === 'tool_result').length, 1);
  });

  it('on a context-length error, rebuilds once under a smaller envelope and says so; a second one is reported', async () => {
    const root = makeWorkspace();
    const tooLong = openaiError(400, "This model's maximum context length is 1000 tokens. However, your messages resulted in 1100 tokens.", { code: 'context_length_exceeded' });
    const s = await serve([tooLong, { sse: openaiText(['Fits now.']) }]);
    const clock = fakeClock();
    const notices: string[] = [];
    const outcome = await sendThroughEngine(snapshotOf(root), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: s.url, clock }), clock, onNotice: (m) => notices.push(m) });
    assert.equal(outcome.stopped, 'answered');
    assert.equal(s.received.length, 2);
    const step = outcome.steps[0];
    const firstFinal = counter.count(s.received[0].body);
    const expected = smallerMaxInput(11000, firstFinal, 1000, 1100);
    assert.equal(expected, Math.floor((firstFinal * 1000 * 0.9) / 1100));
    assert.deepEqual(step.manifest.send.rebuilt, { reason: 'context length exceeded', max_input_before: 11000, max_input_after: expected, provider_limit: 1000, provider_count: 1100 });
    assert.equal(step.manifest.budget.max_input, expected);
    assert.equal(s.received[1].body, step.assembly.serialized);
    assert.ok(step.manifest.budget.final <= expected);
    assert.ok(Buffer.byteLength(s.received[1].body) < Buffer.byteLength(s.received[0].body));
    assert.deepEqual(step.manifest.warnings.filter((w) => w.source === 'provider:openai'), [{ source: 'provider:openai', message: `context length exceeded: rebuilt once under max_input ${expected} (was 11000)` }]);
    assert.match(step.trace, new RegExp(`REBUILT\\s+context length exceeded: max_input 11\u202f000 → ${expected.toLocaleString('en').replace(/,/g, '\u202f')} \\(provider: 1\u202f100 > 1\u202f000 tokens\\), once`));
    assert.deepEqual(notices, [
      "step 1, attempt 1: openai answered 400: the request exceeds the model's context length (This model's maximum context length is 1000 tokens. However, your messages resulted in 1100 tokens.)",
      `step 1: openai answered 400: the request exceeds the model's context length (This model's maximum context length is 1000 tokens. However, your messages resulted in 1100 tokens.); rebuilding once under max_input ${expected} (was 11000)`,
    ]);

    const again = await serve([tooLong, tooLong, { sse: openaiText(['never reached']) }]);
    const failed = await sendThroughEngine(snapshotOf(root), { provider: new OpenAIProvider({ apiKey: KEY, baseUrl: again.url, clock }), clock });
    assert.equal(failed.stopped, 'error');
    assert.equal(failed.error?.message.startsWith("openai answered 400: the request exceeds the model's context length"), true);
    assert.equal(again.received.length, 2, 'one rebuild, not two');
  });

  it('speaks the Anthropic shape through the loop: tool_result follows its tool_use', async () => {
    const root = makeWorkspace();
    const s = await serve([{ sse: anthropicToolUse([{ id: 'toolu_9', name: 'search_workspace', args: { pattern: 'ttl' } }]) }, { sse: anthropicText(['Found it.']) }]);
    const clock = fakeClock();
    const outcome = await sendThroughEngine(snapshotOf(root), { provider: new AnthropicProvider({ apiKey: KEY, baseUrl: s.url, clock }), model: 'claude-haiku-4-5', clock });
    assert.equal(outcome.stopped, 'answered');
    const messages = body(s, 1).messages as { role: string; content: string | { type: string; id?: string; tool_use_id?: string; content?: string }[] }[];
    const useAt = messages.findIndex((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'tool_use' && p.id === 'toolu_9'));
    assert.ok(useAt >= 0);
    const next = messages[useAt + 1];
    assert.equal(next.role, 'user');
    assert.ok(Array.isArray(next.content));
    assert.equal((next.content as { type: string; tool_use_id?: string }[])[0].type, 'tool_result');
    assert.equal((next.content as { type: string; tool_use_id?: string }[])[0].tool_use_id, 'toolu_9');
    assert.equal(
      (next.content as { content?: string }[])[0].content,
      '<tool-output source="session" id="loop-s1-result1" trust="tool-output">\n2 matching lines in 2 files for "ttl"\nconfig/app.properties:1: checkout.ttl.minutes=30\ndocs/runbook.md:18: - `CartExpired`: the cart TTL is 30 minutes.\n</tool-output>',
    );
    outcome.steps.forEach((step, i) => assert.equal(s.received[i].body, step.assembly.serialized));
  });

  it('dry-run sends nothing and hands over the exact bytes it would have sent', async () => {
    const root = makeWorkspace();
    const written: string[] = [];
    const outcome = await sendThroughEngine(snapshotOf(root), { provider: new DryRunProvider({ shape: 'anthropic', write: (b) => written.push(b) }), model: 'claude-haiku-4-5', clock: fakeClock() });
    assert.equal(outcome.stopped, 'dry_run');
    assert.deepEqual(written, [outcome.steps[0].assembly.serialized]);
    assert.equal(outcome.steps[0].manifest.budget.final, counter.count(written[0]));
    assert.equal(outcome.steps[0].manifest.send.sent, false);
    assert.equal(outcome.steps[0].manifest.shape, 'anthropic');
    assert.match(outcome.trace, /Sent\s+nothing \(dry run\)/);
  });
});
