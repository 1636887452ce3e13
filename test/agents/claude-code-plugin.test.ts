import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Answer, Logged } from '../unit/gateway/fake-upstream';
import { defaultAnswer } from '../unit/gateway/fake-upstream';
import { agentBinaries, runClient, allText, dump, PIN_TEXT, REPO, RULE, setup, toolUse, type Setup } from './harness';

/**
 * The plugin of `integrations/claude-code` in the real Claude Code (`claude -p --plugin-dir integrations/claude-code`),
 * in a workspace that `ctxctl setup` never touched (no .mcp.json, no .claude/): the plugin alone brings the skill,
 * the MCP server and the SessionStart hook. It starts `ctxctl` from the PATH, here a one-line wrapper of dist/cli.js.
 * A plugin grants no permission, so the tool is allowed on the command line, as a user would in /permissions.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// Claude Code names a plugin's server `plugin:<plugin>:<server>` and its tools after it.
const TOOLS = ['assemble_context', 'read_document', 'search_workspace', 'inspect_offloaded'].map((t) => `mcp__plugin_context-control_context-control__${t}`);
const TOOL = TOOLS[0];
const PROMPT = 'Use the assemble_context tool of the plugin, then answer.';
const hasTool = (req: Logged, name: string) => Array.isArray(req.json?.tools) && (req.json!.tools as Obj[]).some((t) => t.name === name);
const toolResults = (req: Logged): Obj[] => ((req.json?.messages as Obj[] | undefined) ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p: Obj) => p.type === 'tool_result') : []));

/** ToolSearch loads the deferred MCP tool, the tool is called once, then the model answers. */
function script(req: Logged): Answer | undefined {
  if (req.method !== 'POST' || !/\/v1\/messages$/.test(req.path) || !allText(req.json?.messages).includes(PROMPT)) return undefined;
  if (!(hasTool(req, TOOL) || hasTool(req, 'ToolSearch'))) return undefined;
  const results = toolResults(req);
  if (results.some((p) => p.tool_use_id === 'toolu_pl_1')) return defaultAnswer(req, 3);
  if (hasTool(req, TOOL) || results.some((p) => p.tool_use_id === 'toolu_pl_0')) return toolUse(req, 'toolu_pl_1', TOOL, { task: 'Why do optional fields matter?' });
  return toolUse(req, 'toolu_pl_0', 'ToolSearch', { query: `select:${TOOL}`, max_results: 1 });
}

describe('Claude Code with the plugin of integrations/claude-code', () => {
  let s: Setup;
  let bin: string;
  let env: Record<string, string>;
  before(async () => {
    bin = agentBinaries().claude;
    s = await setup(script, (home) => [path.join(home, '.claude')]);
    fs.writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
    const binDir = path.join(s.home, 'bin');
    fs.mkdirSync(binDir);
    fs.writeFileSync(path.join(binDir, 'ctxctl'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO, 'dist', 'cli.js')}" "$@"\n`, { mode: 0o755 });
    env = { PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: s.home, ANTHROPIC_BASE_URL: s.upstream.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' };
  });
  after(async () => s && (await s.close()));

  it('--plugin-dir loads the skill, the four MCP tools and the SessionStart hook; assemble_context answers from the workspace', { timeout: 240_000 }, async () => {
    assert.ok(!fs.existsSync(path.join(s.root, '.mcp.json')) && !fs.existsSync(path.join(s.root, '.claude')), 'nothing set up in the workspace');
    const run = await runClient(bin, ['-p', PROMPT, '--output-format', 'json', '--plugin-dir', path.join(REPO, 'integrations', 'claude-code'), '--allowedTools', TOOL], s.root, env);
    const where = dump(s, 'claude-code-plugin');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    assert.deepEqual((JSON.parse(run.stdout) as Obj).permission_denials, [], 'nothing denied');
    const main = s.upstream.requests.filter((r) => /\/v1\/messages$/.test(r.path) && allText(r.json?.messages).includes(PROMPT));
    assert.ok(main.length >= 2, `${main.length} main requests (${where})`);
    const first = allText(main[0].json);
    // The skill, under the plugin's name.
    assert.match(first, /\n- context-control:context-control: Use the Context Control MCP tools \(assemble_context, read_document, search_workspace, inspect_offloaded\)/);
    // The server: its four tools offered (deferred behind ToolSearch until loaded).
    for (const t of TOOLS) assert.ok(first.includes(t), `${t} is offered (${where})`);
    // The hook: the rules and the pin, behind its note.
    assert.match(first, /\[Context Control\] Re-injected on startup, verbatim: the rules of AGENTS\.md and 1 pinned block /);
    assert.ok(first.includes(`<pinned source="docs/api.md#L2-L2" label="compat">\n${PIN_TEXT}\n</pinned>`), 'the pin whole');
    const withResult = main.find((r) => toolResults(r).some((p) => p.tool_use_id === 'toolu_pl_1'));
    assert.ok(withResult, `a request carried the tool's result (${where})`);
    const result = toolResults(withResult!).find((p) => p.tool_use_id === 'toolu_pl_1')!;
    const text = Array.isArray(result.content) ? (result.content as Obj[]).map((c) => String(c.text ?? '')).join('') : String(result.content);
    assert.notEqual(result.is_error, true, text.slice(0, 400));
    assert.match(text, /^\[Context Control\] Context budget: /);
    assert.ok(text.includes(`<rules source="AGENTS.md" trust="project-rule">`) && text.includes(RULE), 'the answer carries the rules');
  });
});
