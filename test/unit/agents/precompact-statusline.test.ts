import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fromRecord, fromTranscript, lastRequest, statusText, transcriptRefusal } from '../../../src/core/agents/statusline';
import { num } from '../../../src/core/report/trace';
import { EXAMPLE, REPO } from '../helpers';

const CLI = path.join(REPO, 'dist', 'cli.js');
const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-pc-'));
  roots.push(d);
  return d;
}
function cli(args: string[], input: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const assistant = (at: string, input: number, read: number, write: number, extra: object = {}) =>
  JSON.stringify({ type: 'assistant', timestamp: at, message: { model: 'claude-sonnet-4-5', usage: { input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: 9 } }, ...extra });

describe('ctxctl hook claude-code: PreCompact (issue 28, item 10)', () => {
  it('prints plain instructions for the compaction: the structured summary whole, then the rules and pins, within 9 500 characters', () => {
    const root = tmp();
    fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}offload`) });
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([{ id: 'p1', source: 'docs/runbook.md', startLine: 3, endLine: 3, label: 'on call', text: 'Rollback first.' }]));
    const r = cli(['hook', 'claude-code'], JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '', cwd: root }), { CLAUDE_PROJECT_DIR: root });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    // Plain text, not JSON: Claude Code takes a PreCompact hook's stdout as the compaction's instructions.
    assert.match(r.stdout, /^\[Context Control\] Instructions for this compaction \(manual\): keep the decisions, constraints, open questions and next steps/);
    const parts = r.stdout.trimEnd().split('\n\n');
    assert.match(parts[1], /^<session-summary source="\.context\/session\.jsonl#summary" trust="session">\n# Summary of session events e01…e16 \(16 events\)/);
    assert.ok(r.stdout.includes('\n[Context Control] Re-injected on PreCompact (manual), verbatim: the rules of AGENTS.md and 1 pinned block ('), r.stdout.slice(0, 400));
    assert.ok(r.stdout.includes('<pinned source="docs/runbook.md#L3-L3" label="on call">\nRollback first.\n</pinned>'));
    assert.ok(r.stdout.length <= 9_501, `${r.stdout.length}`);
  });

  it('without a summary says so; a bad event still exits 0 with nothing on stdout', () => {
    const root = tmp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\nBe brief.\n');
    const r = cli(['hook', 'claude-code', '--workspace', root], JSON.stringify({ hook_event_name: 'PreCompact', trigger: 'auto' }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trimEnd().split('\n\n')[1], '[No structured session summary yet (.context/session.summaries.jsonl).]');
    assert.match(r.stdout, /<rules source="AGENTS\.md">\n# Rules\n\nBe brief\.\n<\/rules>\n$/);
    const bad = cli(['hook', 'claude-code', '--workspace', root], '{"hook_event_name": "PreCompact", ');
    assert.deepEqual([bad.code, bad.stdout], [0, '']);
  });
});

describe('ctxctl statusline claude-code (issue 28, item 10)', () => {
  it('reads the last assistant turn of the transcript: input + cache reads + cache writes; a sidechain or a broken line is skipped', () => {
    const lines = [assistant('2026-12-01T10:00:00Z', 10, 100, 5), 'not json', assistant('2026-12-01T10:01:00Z', 3, 40_000, 2_000), assistant('2026-12-01T10:02:00Z', 1, 1, 1, { isSidechain: true }), '{"type":"user"}'];
    assert.deepEqual(fromTranscript(lines), { from: 'transcript', at: '2026-12-01T10:01:00Z', model: 'claude-sonnet-4-5', context: 42_003, window: 200_000 });
    assert.equal(fromTranscript(['{"type":"user"}']), undefined);
    assert.equal(statusText(fromTranscript(lines)), `ctx ${num(42_003)} / ${num(200_000)} tokens (21 %), last request`);
    assert.equal(statusText(undefined), 'ctx: no request yet');
  });

  it('a gateway record counts Anthropic cache tokens in, and is preferred when it is the latest', () => {
    const record = { at: '2026-12-01T10:05:00Z', api: 'anthropic', model: 'claude-sonnet-4-5', window: 200_000, usage: { input_tokens: 100, cache_read_tokens: 50_000, cache_write_tokens: 900 }, changes: [{ rule: 'pins-added' }, { rule: 'trimmed' }] };
    const g = fromRecord(record)!;
    assert.deepEqual(g, { from: 'gateway', at: '2026-12-01T10:05:00Z', model: 'claude-sonnet-4-5', context: 51_000, window: 200_000, changes: 2 });
    assert.equal(fromRecord({ api: 'responses', usage: { input_tokens: 7000 }, model: 'gpt-5' })!.context, 7000);
    assert.equal(fromRecord({ api: 'openai', tokens: { total: 1234 } })!.context, 1234);
    const t = fromTranscript([assistant('2026-12-01T10:06:00Z', 1, 2, 3)])!;
    assert.equal(lastRequest(g, t), t, 'the transcript is newer: the gateway did not carry the last request');
    assert.equal(lastRequest({ ...g, at: '2026-12-01T10:06:01Z' }, t)?.from, 'gateway');
    assert.equal(statusText(g), `ctx ${num(51_000)} / ${num(200_000)} tokens (26 %), last request, via ctxctl gateway (2 changes)`);
  });

  it('reads a transcript only under Claude Code\'s projects folder', () => {
    assert.equal(transcriptRefusal('/home/u/.claude/projects/p/s.jsonl', ['/home/u/.claude']), undefined);
    assert.equal(transcriptRefusal('/home/u/.claude/settings.jsonl', ['/home/u/.claude']), "outside Claude Code's own folders");
    assert.equal(transcriptRefusal('/etc/passwd', ['/home/u/.claude']), 'not a transcript (.jsonl)');
  });

  it('the command: one line from the transcript, or from the newest gateway record of the workspace', () => {
    const home = tmp();
    const transcript = path.join(home, '.claude', 'projects', 'p', 's.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(transcript, assistant('2026-12-01T10:00:00Z', 5, 9_000, 995) + '\n');
    const root = tmp();
    fs.mkdirSync(path.join(root, '.git'));
    const input = JSON.stringify({ transcript_path: transcript, workspace: { project_dir: root, current_dir: root } });
    const r = cli(['statusline', 'claude-code'], input, { HOME: home });
    assert.deepEqual([r.code, r.stdout], [0, `ctx ${num(10_000)} / ${num(200_000)} tokens (5 %), last request\n`]);
    fs.mkdirSync(path.join(root, '.context', 'gateway'), { recursive: true });
    fs.writeFileSync(path.join(root, '.context', 'gateway', 'call-20261201T100500000Z-000001-anthropic.json'), JSON.stringify({ at: '2026-12-01T10:05:00Z', api: 'anthropic', model: 'claude-sonnet-4-5', usage: { input_tokens: 20_000 }, changes: [] }));
    assert.equal(cli(['statusline', 'claude-code'], input, { HOME: home }).stdout, `ctx ${num(20_000)} / ${num(200_000)} tokens (10 %), last request, via ctxctl gateway\n`);
    // A transcript outside ~/.claude is not read.
    const outside = path.join(root, 'x.jsonl');
    fs.writeFileSync(outside, assistant('2026-12-01T11:00:00Z', 1, 1, 1) + '\n');
    assert.equal(cli(['statusline', 'claude-code'], JSON.stringify({ transcript_path: outside, cwd: root }), { HOME: home }).stdout, `ctx ${num(20_000)} / ${num(200_000)} tokens (10 %), last request, via ctxctl gateway\n`);
  });
});

describe('integrations/: the Claude Code plugin and the Codex skill (issue 28, item 10)', () => {
  const I = path.join(REPO, 'integrations');
  it('the plugin declares itself, the server, both hooks; each SKILL.md names every tool and when to call it', () => {
    const plugin = JSON.parse(fs.readFileSync(path.join(I, 'claude-code', '.claude-plugin', 'plugin.json'), 'utf8'));
    assert.equal(plugin.name, 'context-control');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(I, 'claude-code', '.mcp.json'), 'utf8')).mcpServers['context-control'], { type: 'stdio', command: 'ctxctl', args: ['mcp'] });
    const hooks = JSON.parse(fs.readFileSync(path.join(I, 'claude-code', 'hooks', 'hooks.json'), 'utf8')).hooks;
    assert.deepEqual(Object.keys(hooks), ['SessionStart', 'PreCompact']);
    assert.deepEqual([hooks.SessionStart[0].matcher, hooks.PreCompact[0].matcher], ['startup|resume|clear|compact', 'manual|auto']);
    for (const agent of ['claude-code', 'codex']) {
      const skill = fs.readFileSync(path.join(I, agent, 'skills', 'context-control', 'SKILL.md'), 'utf8');
      assert.match(skill, /^---\nname: context-control\ndescription: [^\n]{80,}\n---\n/);
      for (const tool of ['assemble_context', 'read_document', 'search_workspace', 'inspect_offloaded']) assert.ok(skill.includes(`\`${tool}\``), `${agent}: ${tool}`);
    }
  });
});
