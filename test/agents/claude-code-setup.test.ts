import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Answer, Logged } from '../unit/gateway/fake-upstream';
import { defaultAnswer } from '../unit/gateway/fake-upstream';
import { agentBinaries, runClient, allText, dump, PIN_TEXT, REPO, RULE, setup, toolUse, type Setup } from './harness';

/**
 * The real Claude Code (`claude -p`) set up by `ctxctl setup claude-code --write` itself, straight to the fake
 * provider (issue 28): the read-only MCP tool is called without being denied (setup's permissions.allow), a
 * malformed pin entry is skipped and named, `/compact` runs the PreCompact hook (headless: `claude -p "/compact"
 * --continue`), and a start in a subfolder: with the shared settings (what Claude Code reads from there), then with
 * `setup --local`.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const TOOL = 'mcp__context-control__assemble_context';
const hasTool = (req: Logged, name: string) => Array.isArray(req.json?.tools) && (req.json!.tools as Obj[]).some((t) => t.name === name);
const toolResults = (req: Logged): Obj[] => ((req.json?.messages as Obj[] | undefined) ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p: Obj) => p.type === 'tool_result') : []));

/**
 * The main turn: Claude Code 2.1 defers MCP tools behind ToolSearch, so the model loads the tool first
 * (`select:mcp__context-control__assemble_context`), then calls it once, then answers.
 */
function script(req: Logged): Answer | undefined {
  if (req.method !== 'POST' || !/\/v1\/messages$/.test(req.path) || !(hasTool(req, TOOL) || hasTool(req, 'ToolSearch'))) return undefined;
  if (!allText(req.json?.messages).includes('Use the assemble_context tool')) return undefined;
  const results = toolResults(req);
  if (results.some((p) => p.tool_use_id === 'toolu_cc_1')) return defaultAnswer(req, 3);
  if (hasTool(req, TOOL) || results.some((p) => p.tool_use_id === 'toolu_cc_0')) return toolUse(req, 'toolu_cc_1', TOOL, { task: 'Why do optional fields matter?' });
  return toolUse(req, 'toolu_cc_0', 'ToolSearch', { query: `select:${TOOL}`, max_results: 1 });
}

describe('Claude Code set up by ctxctl setup', () => {
  let s: Setup;
  let bin: string;
  let env: Record<string, string>;
  let setupOut = '';
  before(async () => {
    bin = agentBinaries().claude;
    s = await setup(script, (home) => [path.join(home, '.claude')]);
    // The workspace trusted, as the trust dialog of the first interactive start records it.
    fs.writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, projects: { [s.root]: { hasTrustDialogAccepted: true } } }));
    // One malformed entry among the good one (issue 28, item 8).
    const pins = JSON.parse(fs.readFileSync(path.join(s.root, '.context', 'pins.json'), 'utf8')) as object[];
    fs.writeFileSync(path.join(s.root, '.context', 'pins.json'), JSON.stringify([...pins, { id: 'broken', source: 'docs/api.md' }]));
    // A git repository: where Claude Code looks for .claude/settings.local.json from a subfolder.
    assert.equal(spawnSync('git', ['init', '-q', s.root]).status, 0, 'git init');
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'setup', 'claude-code', '--workspace', s.root, '--write', '--command', `${process.execPath} ${path.join(REPO, 'dist', 'cli.js')}`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    setupOut = r.stdout;
    env = { HOME: s.home, ANTHROPIC_BASE_URL: s.upstream.url, ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' };
  });
  after(async () => s && (await s.close()));

  it('claude -p calls assemble_context without being denied; the hook names the malformed pin entry', { timeout: 240_000 }, async () => {
    const run = await runClient(bin, ['-p', 'Use the assemble_context tool, then answer.', '--output-format', 'json'], s.root, env);
    const where = dump(s, 'claude-code-setup');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    const withResult = s.upstream.requests.find((r) => toolResults(r).some((p) => p.tool_use_id === 'toolu_cc_1'));
    assert.ok(withResult, `a request carried the tool's result (${where})`);
    const result = toolResults(withResult!).find((p) => p.tool_use_id === 'toolu_cc_1')!;
    const text = allText(result.content);
    assert.notEqual(result.is_error, true, `not denied, not an error: ${text.slice(0, 400)}`);
    assert.match(text, /\[Context Control\] Context budget: /, 'the tool answered');
    assert.ok(text.includes(RULE), 'the answer carries the rules');
    // SessionStart: the rules and the good pin, and the malformed entry named.
    const all = allText(withResult!.json);
    assert.match(all, /Re-injected on startup, verbatim: the rules of AGENTS\.md and 1 pinned block [^\n]*Not re-injected: \.context\/pins\.json: pin 2 skipped: /);
    assert.ok(all.includes(`<pinned source="docs/api.md#L2-L2" label="compat">\n${PIN_TEXT}\n</pinned>`), 'the good pin arrives whole');
  });

  it('/compact (claude -p "/compact" --continue): the PreCompact hook gives the compaction the pins and its instructions', { timeout: 240_000 }, async () => {
    const before = s.upstream.requests.length;
    const run = await runClient(bin, ['-p', '/compact', '--continue', '--output-format', 'json'], s.root, env);
    const where = dump(s, 'claude-code-compact');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    const compaction = s.upstream.requests.slice(before).find((r) => allText(r.json).includes('[Context Control] Instructions for this compaction (manual)'));
    assert.ok(compaction, `the compaction request carried the PreCompact instructions (${where})`);
    assert.ok(allText(compaction!.json).includes(PIN_TEXT), 'and the pin');
  });

  // Measured with 2.1.332 started in docs/ (its --debug log lists the files it reads): .mcp.json and .claude/skills
  // are found up to the top, .claude/settings.json only in the start folder, .claude/settings.local.json at the top
  // of the git repository. Neither run below passes --settings or --mcp-config.
  it('started in docs/ with the shared .claude/settings.json: the root .mcp.json and skill are found, but no hook runs and the tool is denied', { timeout: 240_000 }, async () => {
    const before = s.upstream.requests.length;
    const run = await runClient(bin, ['-p', 'Use the assemble_context tool, then answer.', '--output-format', 'json'], path.join(s.root, 'docs'), env);
    const where = dump(s, 'claude-code-subfolder-shared');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    const reqs = s.upstream.requests.slice(before);
    assert.ok(reqs.some((r) => hasTool(r, TOOL)), `the root .mcp.json was found: the tool is offered (${where})`);
    assert.ok(reqs.some((r) => allText(r.json).includes('\n- context-control: Use the Context Control MCP tools')), 'the root skill is listed');
    const withResult = reqs.find((r) => toolResults(r).some((p) => p.tool_use_id === 'toolu_cc_1'));
    assert.ok(withResult, `a request carried the tool's result (${where})`);
    const result = toolResults(withResult!).find((p) => p.tool_use_id === 'toolu_cc_1')!;
    assert.equal(result.is_error, true, 'denied');
    assert.match(allText(result.content), /requested permissions to use mcp__context-control__assemble_context, but you haven't granted it yet/);
    assert.deepEqual((JSON.parse(run.stdout) as Obj).permission_denials.map((d: Obj) => d.tool_name), [TOOL]);
    assert.ok(reqs.every((r) => !allText(r.json).includes('[Context Control] Re-injected')), 'no SessionStart hook ran');
    assert.match(setupOut, /Started in a subfolder \(such as docs\/\), Claude Code reads \.claude\/settings\.json only in that folder: no hook runs and the tools are denied/, 'which setup said');
  });

  it('started in docs/ after setup --local (.claude/settings.local.json): the hook and the server serve the root, the tool is allowed', { timeout: 240_000 }, async () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'setup', 'claude-code', '--local', '--workspace', s.root, '--write', '--command', `${process.execPath} ${path.join(REPO, 'dist', 'cli.js')}`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const before = s.upstream.requests.length;
    const run = await runClient(bin, ['-p', 'Use the assemble_context tool, then answer.', '--output-format', 'json'], path.join(s.root, 'docs'), env);
    const where = dump(s, 'claude-code-subfolder-local');
    assert.equal(run.code, 0, `claude exited ${run.code}\n${run.stderr}\n${run.stdout}\nrequests: ${where}`);
    assert.deepEqual((JSON.parse(run.stdout) as Obj).permission_denials, [], 'nothing denied');
    const withResult = s.upstream.requests.slice(before).find((r) => toolResults(r).some((p) => p.tool_use_id === 'toolu_cc_1'));
    assert.ok(withResult, `a request carried the tool's result (${where})`);
    const result = toolResults(withResult!).find((p) => p.tool_use_id === 'toolu_cc_1')!;
    const text = allText(result.content);
    assert.notEqual(result.is_error, true, text.slice(0, 400));
    assert.ok(text.includes(`<rules source="AGENTS.md"`) && text.includes(RULE), `the server read the root's AGENTS.md: ${text.slice(0, 400)}`);
    const all = allText(withResult!.json);
    assert.match(all, /Re-injected on startup, verbatim: the rules of AGENTS\.md and 1 pinned block/);
    assert.ok(all.includes(`<pinned source="docs/api.md#L2-L2" label="compat">\n${PIN_TEXT}\n</pinned>`), 'the root pin, from the hook run in docs/');
  });
});
