import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Answer, Logged } from '../unit/gateway/fake-upstream';
import { agentBinaries, runClient, allText, BIG_NOTE, dump, ERROR_LINE, PIN_TEXT, REPO, RULE, setup, type Setup } from './harness';

/**
 * The real Codex CLI (`codex exec`) set up by `ctxctl setup codex --write` itself, straight to the fake provider (no
 * gateway: whatever reaches the provider came from Codex, its hook or its MCP server). The workspace is a git
 * repository whose project `.codex/config.toml` is the one setup wrote (the project trusted in CODEX_HOME, the hook
 * run with `--dangerously-bypass-hook-trust`, the headless stand-in for trusting it in `/hooks`). Codex is started
 * in `docs/`. One session through four runs: a start (the hook and `assemble_context`), a resume, an automatic
 * compaction (`model_auto_compact_token_limit`, the one compaction Codex 0.171 runs headless), a resume after it.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CLI = path.join(REPO, 'dist', 'cli.js');
const TASK = 'Why does checkout fail?';
const SUMMARY = 'Handoff summary: checkout fails on order 7781, paymentMethod is null.';
const COMPACTION_PROMPT = 'CONTEXT CHECKPOINT COMPACTION';

const input = (req: Logged): Obj[] => (Array.isArray(req.json?.input) ? (req.json!.input as Obj[]) : []);
const texts = (item: Obj): string[] => (Array.isArray(item.content) ? item.content.map((c: Obj) => String(c.text ?? '')) : []);
const lastUser = (req: Logged) => [...input(req)].reverse().find((i) => i.type === 'message' && i.role === 'user');
const says = (req: Logged, text: string) => !!lastUser(req) && texts(lastUser(req)!).join('\n').includes(text);
/** Figures as the trace prints them (a narrow no-break space between thousands), read with plain spaces. */
const plain = (text: string) => text.replace(/\u202f/g, ' ');
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** The developer messages the hook added (Codex puts a SessionStart hook's additionalContext in one). */
const hookMessages = (req: Logged) => input(req).filter((i) => i.role === 'developer' && texts(i).some((t) => t.startsWith('[Context Control]')));

/** One streamed Responses answer holding `item`, with the usage given (Codex compacts on the usage it is told). */
function answer(item: Obj, inputTokens = 100): Answer {
  const usage = { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + 20 };
  const response = { id: `resp_${String(item.id)}`, object: 'response', status: 'completed', model: 'gpt-5-codex', output: [item], usage };
  return {
    events: [
      { event: 'response.created', data: { type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item } },
      { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
      { event: 'response.completed', data: { type: 'response.completed', response } },
    ],
  };
}
const message = (text: string) => answer({ type: 'message', id: 'msg_cx', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
const call = (id: string, fields: Obj, inputTokens?: number) => answer({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, status: 'completed', ...fields }, inputTokens);

/**
 * The fake model: on the task it calls `assemble_context` (Codex 0.171 offers MCP tools in a namespace,
 * `mcp__context_control`, and takes the call back with the namespace named); on "Compact now." it runs a shell
 * command and reports 90 000 input tokens, above the compaction limit of that run, so Codex compacts before its next
 * request; the compaction prompt gets the summary; anything else gets "done".
 */
function script(req: Logged): Answer | undefined {
  if (req.method !== 'POST' || !/\/responses$/.test(req.path)) return undefined;
  const outputs = input(req).filter((i) => i.type === 'function_call_output');
  if (says(req, COMPACTION_PROMPT)) return message(SUMMARY);
  if (says(req, TASK) && outputs.length === 0) return call('ac', { namespace: 'mcp__context_control', name: 'assemble_context', arguments: JSON.stringify({ task: TASK }) });
  if (says(req, 'Compact now.') && !outputs.some((o) => o.call_id === 'call_sh')) return call('sh', { name: 'exec_command', arguments: JSON.stringify({ cmd: 'echo compacting' }) }, 90_000);
  return message('done');
}

/** The docs a task about checkout ranks first: together more than the answer limit leaves room for. */
function runbook(n: number): string {
  return `# Checkout failure runbook ${n}\n\n` + Array.from({ length: 40 }, (_, i) => `- Step ${n}.${i + 1}: when checkout fails, the payment step ${i} checks paymentMethod before PaymentController charges the order.`).join('\n') + '\n';
}

/** What `ctxctl mcp`, started as the Codex entry starts it (in docs/, `--answer-chars` as written), answers a Codex client. */
async function serverAnswer(cwd: string, args: string[], task: string): Promise<string> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], cwd, stderr: 'pipe' });
  const client = new Client({ name: 'codex-mcp-client', version: '0.171.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: 'assemble_context', arguments: { task } }, undefined, { timeout: 120_000 })) as { content: { text: string }[] };
    return r.content.map((c) => c.text).join('');
  } finally {
    await client.close();
  }
}

describe('Codex set up by ctxctl setup, started in a subfolder', () => {
  let s: Setup;
  let bin: string;
  let env: Record<string, string>;
  let docs: string;
  let serverArgs: string[];
  const flags = ['--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust'];
  const codex = (args: string[]) => runClient(bin, ['exec', ...flags, ...args], docs, env, 120_000);
  const responses = (n: number) => s.upstream.requests.slice(n).filter((r) => /\/responses$/.test(r.path));

  before(async () => {
    bin = agentBinaries().codex;
    s = await setup(script, () => []);
    docs = path.join(s.root, 'docs');
    assert.equal(spawnSync('git', ['init', '-q', s.root]).status, 0, 'git init');
    fs.writeFileSync(path.join(s.root, 'docs', 'big-note.md'), BIG_NOTE);
    for (let n = 1; n <= 6; n++) fs.writeFileSync(path.join(s.root, 'docs', `checkout-${n}.md`), runbook(n));
    const pins = JSON.parse(fs.readFileSync(path.join(s.root, '.context', 'pins.json'), 'utf8')) as object[];
    fs.writeFileSync(path.join(s.root, '.context', 'pins.json'), JSON.stringify([{ id: 'big', source: 'docs/big-note.md', text: '' }, ...pins]));
    const r = spawnSync(process.execPath, [CLI, 'setup', 'codex', '--workspace', s.root, '--write', '--command', `${process.execPath} ${CLI}`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const written = fs.readFileSync(path.join(s.root, '.codex', 'config.toml'), 'utf8');
    assert.match(written, /^tool_output_token_limit = 12000$/m, 'setup wrote the limit');
    serverArgs = JSON.parse(/^args = (\[.*\])$/m.exec(written)![1]) as string[];
    assert.deepEqual(serverArgs, [CLI, 'mcp', '--answer-chars', '36000'], 'and the server entry sized to it, with no --workspace');
    // The user's own config: the fake provider, and the project trusted (Codex loads .codex/config.toml only then).
    const codexHome = path.join(s.home, '.codex');
    fs.mkdirSync(codexHome);
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      ['model = "gpt-5-codex"', 'model_provider = "ctxfake"', '', `[projects.${JSON.stringify(s.root)}]`, 'trust_level = "trusted"', '', '[model_providers.ctxfake]', 'name = "fake provider"', `base_url = "${s.upstream.url}/v1"`, 'wire_api = "responses"', 'env_key = "CTXFAKE_API_KEY"', ''].join('\n'),
    );
    env = { HOME: s.home, CODEX_HOME: codexHome, CTXFAKE_API_KEY: 'dummy-key-for-tests', RUST_LOG: 'error' };
  });
  after(async () => s && (await s.close()));

  it('in docs/: Codex loads the root AGENTS.md, the hook adds the root pins without it and names the 26 KB pin; assemble_context serves the root within the limit setup wrote', { timeout: 240_000 }, async () => {
    const run = await codex([TASK]);
    const where = dump(s, 'codex-setup-start');
    assert.equal(run.code, 0, `codex exited ${run.code}\n${run.stderr.slice(-3000)}\nrequests: ${where}`);
    const [first, second] = responses(0);
    assert.ok(first && second, `two requests (${where})`);
    // Codex's own AGENTS.md message, found from docs/ up to the repository top; the rule in it and nowhere else.
    const agentsMd = input(first).find((i) => i.role === 'user' && texts(i)[0]?.startsWith('# AGENTS.md instructions for '));
    assert.ok(agentsMd && texts(agentsMd)[0].includes(RULE), `Codex loaded the root AGENTS.md itself (${where})`);
    assert.equal(count(allText(input(first)), RULE), 1, 'the rule once: the hook does not repeat AGENTS.md');
    // The hook, run in docs/, served the root: its pins, the small one whole, the big one named, not sent.
    const hooks = hookMessages(first);
    assert.equal(hooks.length, 1, `one hook message (${where})`);
    const note = texts(hooks[0])[0];
    assert.equal(
      plain(note.split('\n')[0]),
      '[Context Control] Re-injected on startup, verbatim: 1 pinned block (31 tokens, budget 11 000; at most 9 500 characters for Codex). They still apply. Not re-injected: docs/big-note.md (5 214 tokens; Codex keeps 10 000 characters of a hook; open it with read_document). The rules of AGENTS.md are not repeated: Codex loads AGENTS.md itself.',
    );
    assert.ok(note.includes(`<pinned source="docs/api.md#L2-L2" label="compat">\n${PIN_TEXT}\n</pinned>`), 'the small pin whole');
    assert.ok(!allText(input(first)).includes('Line 200: the nightly settlement'), 'the big pin is not in the hook message');
    // assemble_context: the server Codex started in docs/ served the root, sized to --answer-chars 36000, and
    // Codex passed it on whole (its own cut is at 12 000 tokens): the provider got exactly what the server answers.
    const output = input(second).find((i) => i.type === 'function_call_output' && i.call_id === 'call_ac');
    assert.ok(output, `the tool's answer reached the provider (${where})`);
    const got = (output!.output as Obj[]).map((p) => String(p.text ?? ''));
    assert.match(got[0], /^Wall time: [\d.]+ seconds\nOutput:$/, "Codex's own header");
    const text = got.slice(1).join('');
    const expected = await serverAnswer(docs, serverArgs.slice(1), TASK);
    assert.equal(text, expected, 'the provider received the answer byte for byte');
    assert.ok(text.length <= 36_000, `${text.length} characters`);
    const lines = text.split('\n');
    assert.match(plain(lines[0]), /^\[Context Control\] Sized for the client: this server keeps tool answers to 36 000 characters \(--answer-chars\); assembled at max_input [\d ]+ instead of 11 000 tokens \(4\d [\d]{3} characters at first\)\.$/);
    assert.ok(text.includes(`<rules source="AGENTS.md" trust="project-rule">`) && text.includes(RULE), 'the root rules');
    assert.ok(text.includes('Line 200: the nightly settlement'), 'the big pin, which the hook could not carry, arrives through the tool');
    assert.ok(text.includes(ERROR_LINE), 'the root log and its error');
    // Left out by priority and named: the runbooks that no longer fit are in the index or rejected with the reason.
    for (let n = 1; n <= 5; n++) assert.match(plain(text), new RegExp(`\\n  docs/checkout-${n}\\.md +INDEXED +did not fit the budget \\([\\d ]+ tokens left\\): in the index, available on demand\\n`));
    assert.match(text, /\n {2}docs\/checkout-6\.md +REJECTED +not in this request: did not fit the budget/);
  });

  it('a resume (codex exec resume --last) adds nothing the session already holds', { timeout: 240_000 }, async () => {
    const before = s.upstream.requests.length;
    const run = await codex(['resume', '--last', 'Go on.']);
    const where = dump(s, 'codex-setup-resume');
    assert.equal(run.code, 0, `codex exited ${run.code}\n${run.stderr.slice(-3000)}\nrequests: ${where}`);
    const [req] = responses(before);
    assert.ok(req && says(req, 'Go on.'), `the resumed request (${where})`);
    assert.deepEqual(hookMessages(req).map((m) => texts(m)[0].split('\n')[0].slice(0, 40)), ['[Context Control] Re-injected on startup'], 'the startup injection once, no resume injection');
    assert.equal(count(allText(input(req)), PIN_TEXT), 2, 'the pin: once from the hook, once in the assemble_context answer held in the history');
    assert.equal(input(req).filter((i) => i.role === 'user' && texts(i)[0]?.startsWith('# AGENTS.md instructions for ')).length, 1, 'AGENTS.md once');
  });

  it("Codex's own compaction keeps AGENTS.md; the hook re-injects the pins once on compact; a resume after it repeats nothing", { timeout: 240_000 }, async () => {
    const before = s.upstream.requests.length;
    const run = await codex(['-c', 'model_auto_compact_token_limit=5000', 'resume', '--last', 'Compact now.']);
    const where = dump(s, 'codex-setup-compact');
    assert.equal(run.code, 0, `codex exited ${run.code}\n${run.stderr.slice(-3000)}\nrequests: ${where}`);
    const reqs = responses(before);
    const compaction = reqs.findIndex((r) => says(r, COMPACTION_PROMPT));
    assert.ok(compaction > 0, `Codex compacted (${where})`);
    const next = reqs[compaction + 1];
    assert.ok(next && allText(input(next)).includes(SUMMARY), `the request after the compaction carries the summary (${where})`);
    const agentsMd = input(next).filter((i) => i.role === 'user' && texts(i)[0]?.startsWith('# AGENTS.md instructions for '));
    assert.equal(agentsMd.length, 1, 'Codex put its AGENTS.md back after its compaction');
    assert.ok(texts(agentsMd[0])[0].includes(RULE));
    assert.equal(count(allText(input(next)), RULE), 1, 'the rule once');
    assert.deepEqual(hookMessages(next).map((m) => texts(m)[0].split('\n')[0].slice(0, 40)), ['[Context Control] Re-injected on compact'], 'the compaction dropped the startup injection; the hook put the pins back once');
    assert.equal(count(allText(input(next)), PIN_TEXT), 1, 'the pin once');

    const resumed = s.upstream.requests.length;
    const again = await codex(['resume', '--last', 'And now?']);
    assert.equal(again.code, 0, `codex exited ${again.code}\n${again.stderr.slice(-3000)}`);
    const [req] = responses(resumed);
    assert.ok(req && says(req, 'And now?'), 'the resumed request');
    assert.deepEqual(hookMessages(req).map((m) => texts(m)[0].split('\n')[0].slice(0, 40)), ['[Context Control] Re-injected on compact'], 'the compact injection once, nothing added on resume');
    assert.equal(count(allText(input(req)), PIN_TEXT), 1, 'the pin once');
  });
});
