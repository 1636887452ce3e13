import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listCalls, recordsDir } from '../../src/core/gateway/records';
import type { Answer, Logged } from '../unit/gateway/fake-upstream';
import { defaultAnswer } from '../unit/gateway/fake-upstream';
import { agentBinaries, runClient, allText, dump, ERROR_LINE, items, PIN_TEXT, RULE, SECRET, setup, type Setup } from './harness';

/**
 * The real Codex CLI (`codex exec`, a throwaway CODEX_HOME whose config.toml defines a Responses provider) through
 * `ctxctl gateway`: the fake provider asks for a shell call that cats the large log, then finishes.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const input = (req: Logged) => (Array.isArray(req.json?.input) ? (req.json!.input as Obj[]) : []);
const hasOutput = (req: Logged) => input(req).some((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output');
const toolNames = (req: Logged) => (Array.isArray(req.json?.tools) ? (req.json!.tools as Obj[]).map((t) => String(t.name ?? t.type)) : []);

/** A function call to the shell tool the request offers, in its own argument shape. */
function shellCall(req: Logged): { name: string; arguments: string } | undefined {
  const names = toolNames(req);
  if (names.includes('shell_command')) return { name: 'shell_command', arguments: JSON.stringify({ command: 'cat logs/app.log' }) };
  // Codex cuts a command's output to its head and tail itself, before the gateway sees it, unless the call asks for
  // more (max_output_tokens) and the config lets it (tool_output_token_limit): then the whole output reaches the gateway.
  if (names.includes('exec_command')) return { name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat logs/app.log', max_output_tokens: 200000 }) };
  if (names.includes('shell')) return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'cat logs/app.log'] }) };
  return undefined;
}

function script(req: Logged): Answer | undefined {
  if (req.method !== 'POST' || !/\/responses$/.test(req.path)) return undefined;
  if (hasOutput(req)) return defaultAnswer(req, 3);
  const call = shellCall(req);
  if (!call) return undefined;
  const model = String(req.json?.model ?? 'gpt-5-codex');
  const item = { type: 'function_call', id: 'fc_e2e_1', call_id: 'call_e2e_1', status: 'completed', ...call };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 120 };
  const response = { id: 'resp_e2e_1', object: 'response', status: 'completed', model, output: [item], usage };
  return {
    events: [
      { event: 'response.created', data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } } },
      { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
      { event: 'response.completed', data: { type: 'response.completed', response } },
    ],
  };
}

describe('Codex through ctxctl gateway', () => {
  let s: Setup;
  let bin: string;
  let codexHome: string;
  before(async () => {
    bin = agentBinaries().codex;
    s = await setup(script, () => []);
    codexHome = path.join(s.home, '.codex');
    fs.mkdirSync(codexHome);
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      ['model = "gpt-5-codex"', 'model_provider = "ctxfake"', '# Codex cuts a long output to its head and tail itself (the error in the middle is lost): let it pass whole, the gateway trims it keeping the evidence.', 'tool_output_token_limit = 200000', '', '[model_providers.ctxfake]', 'name = "Context Control gateway"', `base_url = "${s.gateway.url}/v1"`, 'wire_api = "responses"', 'env_key = "CTXFAKE_API_KEY"', ''].join('\n'),
    );
  });
  after(async () => s && (await s.close()));

  it('runs a shell call on a 140 KB log; the provider gets the error, the path, the rules and pins, no secret, a stable prefix', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const run = await runClient(bin, ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'Why does checkout fail? Read logs/app.log with the shell (cat logs/app.log).'], s.root, { HOME: s.home, CODEX_HOME: codexHome, CTXFAKE_API_KEY: 'dummy-key-for-tests', RUST_LOG: 'error' });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    await s.gateway.idle();
    const where = dump(s, 'codex');
    assert.equal(run.code, 0, `codex exited ${run.code} after ${seconds} s\n${run.stderr.slice(-3000)}\n${run.stdout.slice(-2000)}\nrequests: ${where}`);
    const main = s.upstream.requests.filter((r) => /\/responses$/.test(r.path) && shellCall(r));
    const last = main.find(hasOutput);
    assert.ok(last, `a request carried the shell output (${where}; tools ${main.map(toolNames).join(' | ')})`);
    const output = input(last!).find((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')!;
    const text = allText(output.output);
    assert.ok(text.includes(ERROR_LINE), `the error reached the model (${where}):\n${text.slice(0, 1500)}`);
    assert.ok(text.includes(path.join(s.root, '.context', 'offload')), `the offload path is named:\n${text.slice(0, 600)}`);
    const request = allText(last!.json);
    assert.ok(request.includes(RULE), 'the rule is in the request');
    assert.ok(request.includes(PIN_TEXT), 'the pin is in the request');
    for (const r of s.upstream.requests) assert.ok(!r.body.toString('utf8').includes(SECRET), `no secret upstream (${r.path})`);
    const calls = listCalls(recordsDir(s.root));
    assert.ok(calls.every((c) => !c.prefix_broken_by_gateway), 'the gateway broke no prefix');
    const first = main[main.indexOf(last!) - 1];
    const before = items(input(first));
    assert.deepEqual(items(input(last!)).slice(0, before.length), before, 'the items sent earlier are sent again unchanged');
    process.stderr.write(`codex exec through the gateway: ${seconds} s, ${s.upstream.requests.length} upstream requests\n`);
  });
});
