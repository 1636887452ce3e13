import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { plan } from '../../../src/core/gateway/plan';
import { anthropicRequest, bigLog, chatRequest, ERROR_LINE, PIN, planContext, removeTemps, responsesRequest, RULES, SECRET } from './shapes';

/** Each wire format's transforms on the request shapes the agents send. */

after(removeTemps);
const LOG = bigLog();
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('gateway transforms: Anthropic Messages', () => {
  it('offloads and trims the large tool_result (error kept, path named), redacts the secret text part, leaves the image, the thinking block and the ids alone, adds the missing pins once', () => {
    const ctx = planContext();
    const body = anthropicRequest(LOG);
    const p = plan('anthropic', JSON.stringify(body), ctx);
    assert.ok(p.body, 'the request changed');
    const sent = JSON.parse(p.body!) as Obj;
    const result = sent.messages[2].content[0];
    assert.equal(result.type, 'tool_result');
    assert.equal(result.tool_use_id, 'toolu_01');
    assert.ok(result.content.length < LOG.length / 5, `trimmed: ${result.content.length} chars`);
    assert.ok(result.content.includes(ERROR_LINE), 'the error line is kept');
    assert.equal(ctx.offloaded.length, 1);
    assert.ok(result.content.includes(ctx.offloaded[0]), 'the offload path is named');
    assert.equal(fs.readFileSync(ctx.offloaded[0], 'utf8'), LOG, 'the whole output is offloaded');
    const parts = sent.messages[2].content[1].content;
    assert.equal(parts[0].text, 'token [REDACTED:github-token]');
    assert.deepEqual(parts[1], (body.messages as Obj[])[2].content[1].content[1], 'the image part is untouched');
    assert.deepEqual(sent.messages[1], (body.messages as Obj[])[1], 'the assistant turn (thinking + signature, tool_use id) is untouched');
    assert.deepEqual(sent.tools, body.tools);
    assert.deepEqual(sent.system.slice(0, 2), body.system, "the agent's system blocks and cache breakpoints are untouched");
    assert.equal(sent.system.length, 3);
    assert.ok(sent.system[2].text.includes(PIN.wrapped) && sent.system[2].text.includes(RULES.wrapped));
    assert.deepEqual(p.pins, { present: [], added: [PIN.source, RULES.source] });
    assert.deepEqual(p.changes.map((c) => [c.rule, c.where]), [
      ['offloaded', 'messages[2].content[0].content'],
      ['redacted', 'messages[2].content[1].content[0]'],
      ['pins-added', 'system'],
    ]);
    assert.equal(p.changes[0].tool, 'Bash');
    assert.equal(p.changes[0].reason, `over gateway.tool_result_tokens 6000 (${Buffer.byteLength(LOG)} bytes): offloaded whole and trimmed (log)`);
    assert.ok(result.content.startsWith(`[Context Control gateway: this tool output (${Buffer.byteLength(LOG)} bytes) is over the 6000-token threshold; the whole output is saved at ${ctx.offloaded[0]}.`), result.content.slice(0, 200));
    assert.equal(p.changes[0].tokens_before, undefined, 'the exact count is the record\'s');
  });

  it('a pin already in the request is not added again; a string system gets the block appended', () => {
    const body = anthropicRequest('short output');
    body.system = 'You are an agent.';
    (body.messages as Obj[])[0].content[1].text += `\n${PIN.text}`;
    const p = plan('anthropic', JSON.stringify(body), planContext());
    const sent = JSON.parse(p.body!) as Obj;
    assert.deepEqual(p.pins, { present: [PIN.source], added: [RULES.source] });
    assert.ok(sent.system.startsWith('You are an agent.\n\n[Context Control]'));
    assert.ok(!sent.system.includes(PIN.wrapped));
  });

  it("replaces Claude Code's head-only <persisted-output> preview by the evidence digest of the saved file, keeping its path", () => {
    const saved = '/home/u/.claude/projects/-work-ws/s1/tool-results/toolu_01.txt';
    const preview = `<persisted-output>\nOutput too large (140.2KB). Full output saved to: ${saved}\n\nPreview (first 2KB):\n${LOG.slice(0, 2048)}\n...\n</persisted-output>`;
    const ctx = planContext({ agentFiles: { [saved]: LOG } });
    const p = plan('anthropic', JSON.stringify(anthropicRequest(preview)), ctx);
    const text = (JSON.parse(p.body!) as Obj).messages[2].content[0].content as string;
    assert.ok(text.includes(ERROR_LINE), 'the error from the middle of the saved file reaches the model');
    assert.ok(text.includes(saved));
    assert.ok(!text.includes('<persisted-output>'));
    assert.equal(p.changes[0].rule, 'agent-preview');
    assert.equal(p.changes[0].path, saved);
    assert.equal(ctx.offloaded.length, 0, 'the saved file is the full text: nothing else is stored');
  });

  it('a preview naming a file outside the agent folder is left alone, with a note', () => {
    const preview = '<persisted-output>\nOutput too large. Full output saved to: /etc/passwd\n\nPreview (first 2KB):\nroot:x:0:0\n</persisted-output>';
    const p = plan('anthropic', JSON.stringify(anthropicRequest(preview)), planContext());
    assert.equal((JSON.parse(p.body!) as Obj).messages[2].content[0].content, preview);
    assert.match(p.notes.join('\n'), /names \/etc\/passwd, not read: outside the agent folder/);
  });

  it('a string user content is a slot too (redacted)', () => {
    const body = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: `my key is ${SECRET}` }] };
    const p = plan('anthropic', JSON.stringify(body), planContext({ durable: [] }));
    assert.equal((JSON.parse(p.body!) as Obj).messages[0].content, 'my key is [REDACTED:github-token]');
  });
});

describe('gateway transforms: OpenAI Responses', () => {
  it('trims the function_call_output, leaves reasoning (encrypted) and function_call alone, appends the pins to instructions', () => {
    const ctx = planContext();
    const body = responsesRequest(LOG);
    const p = plan('responses', JSON.stringify(body), ctx);
    const sent = JSON.parse(p.body!) as Obj;
    const out = sent.input[5];
    assert.equal(out.type, 'function_call_output');
    assert.equal(out.call_id, 'call_1');
    assert.ok(out.output.includes(ERROR_LINE) && out.output.includes(ctx.offloaded[0]));
    assert.ok(out.output.length < LOG.length / 5);
    assert.deepEqual(sent.input.slice(0, 5), (body.input as Obj[]).slice(0, 5), 'everything before is untouched');
    assert.ok(sent.instructions.startsWith('You are Codex, a coding agent.\n\n[Context Control]'));
    assert.deepEqual(sent.tools, body.tools);
    assert.equal(p.changes[0].tool, 'shell');
  });

  it('output given as input_text parts, and a string input', () => {
    const body = responsesRequest('', [{ type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: LOG }] }]);
    const p = plan('responses', JSON.stringify(body), planContext({ durable: [] }));
    const sent = JSON.parse(p.body!) as Obj;
    assert.ok(sent.input[6].output[0].text.includes(ERROR_LINE));
    assert.ok(sent.input[6].output[0].text.length < LOG.length / 5);
    const s = plan('responses', JSON.stringify({ model: 'gpt-5', input: `hi ${SECRET}` }), planContext({ durable: [] }));
    assert.equal((JSON.parse(s.body!) as Obj).input, 'hi [REDACTED:github-token]');
  });

  it('an output before the last model item is not changed (the provider cached it)', () => {
    const body = responsesRequest(LOG, [{ type: 'function_call', call_id: 'call_3', name: 'shell', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_3', output: 'ok' }]);
    const p = plan('responses', JSON.stringify(body), planContext({ durable: [] }));
    assert.equal(p.body, undefined, 'nothing to change in the last user turn');
  });
});

describe('gateway transforms: Chat Completions', () => {
  it('trims the tool message, leaves the assistant tool_calls alone, puts the pins in the first system message', () => {
    const ctx = planContext();
    const body = chatRequest(LOG);
    const p = plan('chat', JSON.stringify(body), ctx);
    const sent = JSON.parse(p.body!) as Obj;
    assert.equal(sent.messages.length, 4, 'no message added: the system message holds the pins');
    assert.ok(sent.messages[0].content.startsWith('You are a coding assistant.\n\n[Context Control]'));
    assert.deepEqual(sent.messages[2], (body.messages as Obj[])[2]);
    assert.equal(sent.messages[3].tool_call_id, 'call_9');
    assert.ok(sent.messages[3].content.includes(ERROR_LINE) && sent.messages[3].content.includes(ctx.offloaded[0]));
    assert.equal(p.changes[0].tool, 'run');
  });

  it('without a system message, one is put first; tool content as text parts', () => {
    const body = chatRequest('', [{ role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'run', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: LOG }] }]);
    (body.messages as Obj[]).shift();
    const p = plan('chat', JSON.stringify(body), planContext());
    const sent = JSON.parse(p.body!) as Obj;
    assert.equal(sent.messages[0].role, 'system');
    assert.deepEqual(sent.messages.slice(1, 4), (body.messages as Obj[]).slice(0, 3));
    assert.ok(sent.messages[5].content[0].text.includes(ERROR_LINE));
  });
});

describe('gateway transforms: what the agents do themselves', () => {
  it("a pin in a system-role message of the conversation (Claude Code 2.1) counts as present", () => {
    const body = anthropicRequest('short');
    (body.messages as Obj[]).splice(1, 0, { role: 'system', content: `# Environment\n${PIN.text}` });
    const p = plan('anthropic', JSON.stringify(body), planContext());
    assert.deepEqual(p.pins, { present: [PIN.source], added: [RULES.source] });
  });

  it("Codex's own head-and-tail cut of an output is said in the notes: the middle never reached the gateway", () => {
    const cut = 'Chunk ID: 090dfa\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 38689\nOutput:\nWarning: truncated output (original token count: 38689)\nTotal output lines: 1503\n\nINFO first line';
    const p = plan('responses', JSON.stringify(responsesRequest(cut)), planContext({ durable: [] }));
    assert.equal(p.body, undefined);
    assert.match(p.notes.join('\n'), /input\[5\]\.output: the agent cut this output itself .*original token count: 38689.*tool_output_token_limit/);
  });
});

describe('gateway transforms: observe mode and unchanged requests', () => {
  it('observe plans nothing: no body, no change, but says which pins are present', () => {
    const p = plan('anthropic', JSON.stringify(anthropicRequest(LOG)), planContext({ mode: 'observe' }));
    assert.equal(p.body, undefined);
    assert.deepEqual(p.changes, []);
    assert.deepEqual(p.pins, { present: [], added: [] });
  });

  it('a body with an integer JSON cannot carry exactly is forwarded unchanged, with a note', () => {
    const raw = `{"model":"gpt-4o","seed":12345678901234567890,"messages":[{"role":"user","content":"hi ${SECRET}"}]}`;
    const p = plan('chat', raw, planContext({ durable: [] }));
    assert.equal(p.body, undefined);
    assert.match(p.notes[0], /number JSON cannot carry exactly/);
  });
});
