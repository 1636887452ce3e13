import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Answer, Logged } from '../unit/gateway/fake-upstream';
import { defaultAnswer } from '../unit/gateway/fake-upstream';
import { listCalls, recordsDir } from '../../src/core/gateway/records';
import { agentBinaries, runClient, allText, dump, ERROR_LINE, items, PIN_TEXT, RULE, SECRET, setup, type Setup } from './harness';

/**
 * The real Claude Code (`claude -p … --output-format json --allowedTools Bash`) through `ctxctl gateway`: the fake
 * provider asks for a Bash call that cats the large log, then finishes. What reached it is checked.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const hasTool = (req: Logged, name: string) => Array.isArray(req.json?.tools) && (req.json!.tools as Obj[]).some((t) => t.name === name);
const hasToolResult = (req: Logged) => ((req.json?.messages as Obj[] | undefined) ?? []).some((m) => Array.isArray(m.content) && m.content.some((p: Obj) => p.type === 'tool_result'));

function script(req: Logged): Answer | undefined {
  if (req.method !== 'POST' || !/\/v1\/messages$/.test(req.path) || !hasTool(req, 'Bash')) return undefined;
  if (hasToolResult(req)) return defaultAnswer(req, 3);
  const model = String(req.json?.model ?? 'claude');
  const input = JSON.stringify({ command: 'cat logs/app.log', description: 'Read the application log' });
  const usage = { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 };
  if (req.json?.stream !== true) return { json: { id: 'msg_tool', type: 'message', role: 'assistant', model, content: [{ type: 'tool_use', id: 'toolu_e2e_1', name: 'Bash', input: JSON.parse(input) }], stop_reason: 'tool_use', stop_sequence: null, usage } };
  return {
    events: [
      { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_tool', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_e2e_1', name: 'Bash', input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  };
}

describe('Claude Code through ctxctl gateway', () => {
  let s: Setup;
  let bin: string;
  before(async () => {
    bin = agentBinaries().claude;
    s = await setup(script, (home) => [path.join(home, '.claude')]);
    fs.writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  });
  after(async () => s && (await s.close()));

  it('runs a Bash tool call on a 140 KB log; the provider gets the error, the path, the pins, no secret, a stable prefix', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const run = await runClient(bin, ['-p', 'Why does checkout fail? Read logs/app.log with Bash (cat logs/app.log).', '--output-format', 'json', '--allowedTools', 'Bash'], s.root, { HOME: s.home, ANTHROPIC_BASE_URL: s.gateway.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    await s.gateway.idle();
    const where = dump(s, 'claude-code');
    assert.equal(run.code, 0, `claude exited ${run.code} after ${seconds} s\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    const answer = JSON.parse(run.stdout) as Obj;
    assert.equal(answer.is_error, false, run.stdout);
    const main = s.upstream.requests.filter((r) => /\/v1\/messages$/.test(r.path) && hasTool(r, 'Bash'));
    assert.ok(main.length >= 2, `${main.length} main requests (${where})`);
    const last = main.find(hasToolResult);
    assert.ok(last, `a request carried the tool result (${where})`);
    const messages = last!.json!.messages as Obj[];
    const result = messages.at(-1)!.content.find((p: Obj) => p.type === 'tool_result');
    const resultText = allText(result.content);
    assert.ok(resultText.includes(ERROR_LINE), `the error reached the model (${where}):\n${resultText.slice(0, 1500)}`);
    assert.match(resultText, /(\.context\/offload\/|tool-results\/)\S+/, 'the path of the whole output is named');
    // Claude Code puts AGENTS.md in a system-reminder itself; the pinned block it does not know is added by the gateway.
    assert.ok(allText(last!.json).includes(RULE), 'the rule is in the request');
    assert.ok(allText(last!.json!.system).includes(PIN_TEXT), 'the pin is in the system');
    const records = listCalls(recordsDir(s.root)).filter((c) => c.changes.some((x) => x.rule === 'pins-added'));
    assert.ok(records.length >= 2, 'the records say the pins were re-added');
    assert.ok(records.every((c) => c.pins.present.includes('AGENTS.md') && c.pins.added.includes('docs/api.md#L2-L2')), JSON.stringify(records.map((c) => c.pins)));
    assert.ok(records.some((c) => c.changes.some((x) => x.rule === 'agent-preview')), 'the record names the preview replaced');
    // Claude Code itself rewrites an early message between calls (a system message's content, list then string):
    // the gateway must never be the one that breaks the prefix, and must send again, byte for byte, what the agent kept.
    assert.ok(listCalls(recordsDir(s.root)).every((c) => !c.prefix_broken_by_gateway), 'the gateway broke no prefix');
    for (const r of s.upstream.requests) assert.ok(!r.body.toString('utf8').includes(SECRET), `no secret upstream (${r.path})`);
    const first = main[main.indexOf(last!) - 1];
    const calls = fs.readdirSync(recordsDir(s.root)).filter((f) => f.startsWith('call-')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(recordsDir(s.root), f), 'utf8')) as Obj);
    const received = calls.filter((c) => Array.isArray(c.received.tools) && c.received.tools.some((t: Obj) => t.name === 'Bash')).map((c) => items(c.received.messages));
    const sentBefore = items(first.json!.messages as unknown[]);
    const sentNow = items(messages);
    const [gotBefore, gotNow] = received.slice(-2);
    sentBefore.forEach((m, i) => {
      if (gotBefore[i] === gotNow[i]) assert.equal(sentNow[i], m, `message ${i}: the agent sent it again unchanged, so must the gateway`);
    });
    process.stderr.write(`claude -p through the gateway: ${seconds} s, ${s.upstream.requests.length} upstream requests\n`);
  });
});
