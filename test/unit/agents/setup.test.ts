import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { REPO } from '../helpers';

/** `ctxctl setup AGENT [--write]` (the bundle) on real files: merges never destroy what is there. */

const CLI = path.join(REPO, 'dist', 'cli.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tmp(files: Record<string, string> = {}): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-setup-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

function setup(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, 'setup', ...args, '--workspace', root], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: root } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const OUR_HOOK = { matcher: 'startup|resume|clear|compact', hooks: [{ type: 'command', command: 'ctxctl hook claude-code', timeout: 30 }] };

describe('ctxctl setup', () => {
  it('claude-code --write merges the server into .mcp.json and the hook into .claude/settings.json, keeping every other entry', () => {
    const mcp = { mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } } };
    const theirHook = { matcher: 'startup', hooks: [{ type: 'command', command: 'echo hello' }] };
    const settings = { permissions: { allow: ['Bash(npm test)'] }, hooks: { SessionStart: [theirHook], Stop: [{ hooks: [{ type: 'command', command: 'notify' }] }] } };
    const root = tmp({ '.mcp.json': JSON.stringify(mcp, null, 2) + '\n', '.claude/settings.json': JSON.stringify(settings, null, 2) + '\n' });
    const r = setup(root, 'claude-code', '--write');
    assert.equal(r.code, 0, r.stderr);
    const merged = JSON.parse(read(root, '.mcp.json'));
    assert.deepEqual(merged.mcpServers.github, mcp.mcpServers.github);
    assert.deepEqual(merged.mcpServers['context-control'], { type: 'stdio', command: 'ctxctl', args: ['mcp'] });
    const s = JSON.parse(read(root, '.claude/settings.json'));
    // The user's own rule stays first; the four read-only tools are allowed by their Claude Code names (issue 28, item 9).
    assert.deepEqual(s.permissions, { allow: ['Bash(npm test)', 'mcp__context-control__assemble_context', 'mcp__context-control__read_document', 'mcp__context-control__search_workspace', 'mcp__context-control__inspect_offloaded'] });
    assert.deepEqual(s.enabledMcpjsonServers, ['context-control']);
    assert.deepEqual(s.hooks.Stop, settings.hooks.Stop);
    assert.deepEqual(s.hooks.SessionStart, [theirHook, OUR_HOOK]);
    assert.deepEqual(s.hooks.PreCompact, [{ ...OUR_HOOK, matcher: 'manual|auto' }]);
    assert.deepEqual(s.statusLine, { type: 'command', command: 'ctxctl statusline claude-code', padding: 0 });
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], '.mcp.json: added mcpServers.context-control');
    assert.ok(lines.includes('+++ .mcp.json'));
    assert.ok(lines.includes('+    "context-control": {'), r.stdout);
    assert.ok(lines.includes('.claude/settings.json: added a SessionStart hook (startup|resume|clear|compact) running ctxctl hook claude-code'));
    assert.ok(lines.indexOf('+++ .mcp.json') < lines.indexOf('wrote .mcp.json'), 'the diff is shown before the write');
    assert.deepEqual(lines.slice(-4), ['wrote .mcp.json', 'wrote .claude/settings.json', 'wrote .claude/skills/context-control/SKILL.md', '']);
    assert.equal(read(root, '.claude/skills/context-control/SKILL.md'), fs.readFileSync(path.join(REPO, 'integrations', 'claude-code', 'skills', 'context-control', 'SKILL.md'), 'utf8'));

    const before = [read(root, '.mcp.json'), read(root, '.claude/settings.json')];
    const again = setup(root, 'claude-code', '--write');
    assert.equal(
      again.stdout,
      '.mcp.json: mcpServers.context-control is already set up\n.claude/settings.json: a SessionStart hook already runs ctxctl hook claude-code\n' +
        '.claude/settings.json: a PreCompact hook already runs ctxctl hook claude-code\n' +
        '.claude/settings.json: permissions.allow already has mcp__context-control__assemble_context, mcp__context-control__read_document, mcp__context-control__search_workspace, mcp__context-control__inspect_offloaded\n' +
        '.claude/settings.json: enabledMcpjsonServers already has context-control\n.claude/settings.json: statusLine already runs ctxctl statusline claude-code\n' +
        '.claude/skills/context-control/SKILL.md: the context-control skill is already installed\n' +
        `Then trust the folder once (yours to do): start \`claude\` in ${root} and accept the trust dialog; until then Claude Code ignores the permissions.allow above and \`claude -p\` denies the tools.\n` +
        `Start \`claude\` in ${root} itself: started in a subfolder, Claude Code reads neither .claude/settings.json nor .claude/settings.local.json of this folder (it is not the top of a git repository), so no hook runs and the tools are denied; the MCP server and the skill are still found.\n` +
        'nothing to write: already set up\n',
    );
    assert.deepEqual([read(root, '.mcp.json'), read(root, '.claude/settings.json')], before, 'a second run changes nothing');
  });

  it('claude-code --local writes the hooks and permissions to .claude/settings.local.json, which Claude Code reads from a subfolder of a git repository', () => {
    const root = tmp({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const plain = setup(root, 'claude-code');
    assert.ok(
      plain.stdout.includes(
        `Started in a subfolder (such as docs/), Claude Code reads .claude/settings.json only in that folder: no hook runs and the tools are denied (the MCP server and the skill are still found). To start it anywhere in the repository, run \`ctxctl setup claude-code --local --write\` (your own .claude/settings.local.json, which Claude Code reads from the top of the git repository), or start \`claude\` in ${root}.\n`,
      ),
      plain.stdout,
    );
    const r = setup(root, 'claude-code', '--local', '--write');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!fs.existsSync(path.join(root, '.claude', 'settings.json')), 'the shared settings are not written');
    const s = JSON.parse(read(root, '.claude/settings.local.json'));
    assert.deepEqual(s.hooks.SessionStart, [OUR_HOOK]);
    assert.deepEqual(s.hooks.PreCompact, [{ ...OUR_HOOK, matcher: 'manual|auto' }]);
    assert.equal(s.permissions.allow.length, 4);
    const lines = r.stdout.split('\n');
    assert.ok(lines.includes('.claude/settings.local.json: added a SessionStart hook (startup|resume|clear|compact) running ctxctl hook claude-code'), r.stdout);
    assert.ok(lines.includes('Claude Code reads .claude/settings.local.json from the top of the git repository, so the hooks and permissions also hold when `claude` starts in a subfolder. The file is yours: keep it out of git.'), r.stdout);
    assert.deepEqual(lines.slice(-4), ['wrote .mcp.json', 'wrote .claude/settings.local.json', 'wrote .claude/skills/context-control/SKILL.md', '']);
    assert.ok(setup(root, 'claude-code', '--local').stdout.endsWith('\nalready set up\n'), 'a second run changes nothing');
    const codex = setup(root, 'codex', '--local');
    assert.equal(codex.code, 2);
    assert.match(codex.stderr, /--local is for claude-code/);
  });

  it('vscode keeps comments and other servers of .vscode/mcp.json (JSONC), writes "servers", and writes nothing without --write', () => {
    const original = '{\n  // team servers\n  "servers": {\n    "db": { "type": "stdio", "command": "db-mcp" }, // local db\n  },\n  "inputs": []\n}\n';
    const root = tmp({ '.vscode/mcp.json': original });
    const dry = setup(root, 'vscode');
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(read(root, '.vscode/mcp.json'), original, 'nothing written without --write');
    assert.match(dry.stdout, /^\.vscode\/mcp\.json: added servers\.context-control\n--- \.vscode\/mcp\.json\n\+\+\+ \.vscode\/mcp\.json\n@@ /);
    assert.ok(dry.stdout.endsWith('nothing written: run `ctxctl setup vscode --write` to merge this change\n'));
    assert.equal(setup(root, 'vscode', '--write').code, 0);
    const text = read(root, '.vscode/mcp.json');
    assert.ok(text.includes('// team servers') && text.includes('// local db'), text);
    assert.ok(text.includes('"db": { "type": "stdio", "command": "db-mcp" }'));
    const value = new Function(`return (${text.replace(/\/\/[^\n]*/g, '')})`)() as { servers: Record<string, unknown>; inputs: unknown[] };
    assert.deepEqual(value.servers['context-control'], { type: 'stdio', command: 'ctxctl', args: ['mcp', '--workspace', '${workspaceFolder}'] });
    assert.deepEqual(value.inputs, []);
  });

  it('cursor creates .cursor/mcp.json with mcpServers; --command sets how ctxctl is started', () => {
    const root = tmp();
    const r = setup(root, 'cursor', '--write', '--command', 'node /opt/context-control/dist/cli.js');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(read(root, '.cursor/mcp.json')), {
      mcpServers: { 'context-control': { command: 'node', args: ['/opt/context-control/dist/cli.js', 'mcp', '--workspace', '${workspaceFolder}'] } },
    });
    assert.ok(r.stdout.includes('--- .cursor/mcp.json (new file)\n'));
  });

  it('codex appends the server and the SessionStart hook to the TOML config, every existing byte kept', () => {
    const root = tmp();
    const config = path.join(root, 'codex-home', 'config.toml');
    const original = '# my codex config\nmodel = "gpt-5-codex"\n\n[mcp_servers.github]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-github"]\n';
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, original);
    const r = setup(root, 'codex', '--write', '--codex-config', config);
    assert.equal(r.code, 0, r.stderr);
    const text = fs.readFileSync(config, 'utf8');
    assert.ok(text.includes(original), 'every existing byte kept');
    assert.ok(text.startsWith('# Context Control (ctxctl setup codex): Codex cuts a tool answer above this many tokens; ctxctl mcp --answer-chars keeps to it\ntool_output_token_limit = 12000\n\n' + original), 'the top-level key first, the rest appended');
    const value = JSON.parse(JSON.stringify(parseToml(text))) as { model: string; mcp_servers: Record<string, unknown>; hooks: { SessionStart: unknown[] } };
    assert.equal(value.model, 'gpt-5-codex');
    assert.deepEqual(value.mcp_servers.github, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] });
    assert.deepEqual(value.mcp_servers['context-control'], { command: 'ctxctl', args: ['mcp', '--answer-chars', '36000'] });
    assert.deepEqual(value.hooks.SessionStart, [{ ...OUR_HOOK, hooks: [{ ...OUR_HOOK.hooks[0], command: 'ctxctl hook codex' }] }]);
    assert.ok(r.stdout.includes(`wrote ${config}\n`));
    assert.ok(!fs.existsSync(path.join(root, '.codex')), 'HOME is not touched when --codex-config is given');
    const again = setup(root, 'codex', '--write', '--codex-config', config);
    assert.equal(fs.readFileSync(config, 'utf8'), text);
    assert.match(again.stdout, /nothing to write: already set up\n$/);
  });

  it('codex without --codex-config writes the project\'s .codex/config.toml and prints the exact trust steps', () => {
    const root = tmp();
    const r = setup(root, 'codex', '--write');
    assert.equal(r.code, 0, r.stderr);
    const value = JSON.parse(JSON.stringify(parseToml(read(root, '.codex/config.toml')))) as { tool_output_token_limit: number; mcp_servers: Record<string, unknown>; hooks: { SessionStart: unknown[] } };
    assert.equal(value.tool_output_token_limit, 12000);
    assert.deepEqual(value.mcp_servers['context-control'], { command: 'ctxctl', args: ['mcp', '--answer-chars', '36000'] });
    assert.equal(JSON.stringify(value.hooks.SessionStart), JSON.stringify([{ matcher: 'startup|resume|clear|compact', hooks: [{ type: 'command', command: 'ctxctl hook codex', timeout: 30 }] }]));
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('Then, in Codex (these steps are yours: ctxctl does not trust anything for you):');
    assert.ok(at > 0, r.stdout);
    assert.equal(lines[at + 1], `  1. Trust the project, so Codex loads .codex/config.toml: start \`codex\` in ${root} and answer yes to trusting the folder (or add [projects.${JSON.stringify(root)}] trust_level = "trusted" to ~/.codex/config.toml).`);
    assert.equal(lines[at + 2], '  2. Trust the hook: in the Codex TUI type /hooks, pick the SessionStart hook running ctxctl hook codex, and trust it. Until then `codex exec` skips it silently.');
    assert.equal(lines[at + 3], '  3. Codex releases where hooks are off by default also need [features] hooks = true (the older name codex_hooks is deprecated).');
    assert.doesNotMatch(r.stdout, /codex_hooks = true/);
    // The Codex skill, where Codex finds a repository's skills; one the user changed is left as it is.
    assert.match(read(root, '.agents/skills/context-control/SKILL.md'), /^---\nname: context-control\ndescription: /);
    fs.writeFileSync(path.join(root, '.agents/skills/context-control/SKILL.md'), 'mine\n');
    const again = setup(root, 'codex', '--write');
    assert.ok(again.stdout.includes('.agents/skills/context-control/SKILL.md: a different skill is there; left as it is (the shipped one is integrations/codex/skills/context-control/SKILL.md)\n'), again.stdout);
    assert.equal(read(root, '.agents/skills/context-control/SKILL.md'), 'mine\n');
  });

  it('a malformed file exits 2 with file:line:column and nothing is written, not even the other file', () => {
    const root = tmp({ '.mcp.json': '{\n  "mcpServers": {\n    "a": { "command": "x" },,\n  }\n}\n' });
    const r = setup(root, 'claude-code', '--write');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'ctxctl: .mcp.json:3:29: invalid JSON: PropertyNameExpected; nothing written\n');
    assert.ok(!fs.existsSync(path.join(root, '.claude')), '.claude/settings.json was not created');

    const notObject = tmp({ '.cursor/mcp.json': '{ "mcpServers": [] }\n' });
    const r2 = setup(notObject, 'cursor', '--write');
    assert.equal(r2.code, 2);
    assert.equal(r2.stderr, 'ctxctl: .cursor/mcp.json:1:17: "mcpServers" must be an object; nothing written\n');

    const config = path.join(root, 'config.toml');
    fs.writeFileSync(config, 'model = "gpt-5"\n[mcp_servers\ncommand = 1\n');
    const r3 = setup(root, 'codex', '--write', '--codex-config', config);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, new RegExp(`^ctxctl: ${config.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:\\d+: invalid TOML: .+; nothing written\\n$`));
    assert.equal(fs.readFileSync(config, 'utf8'), 'model = "gpt-5"\n[mcp_servers\ncommand = 1\n');
  });

  it('--write never follows a link out of the workspace: a linked .mcp.json or .claude folder is refused, nothing written', () => {
    const outside = tmp({ 'victim.json': '{"keep":1}\n' });
    const root = tmp();
    fs.symlinkSync(path.join(outside, 'victim.json'), path.join(root, '.mcp.json'));
    const r = setup(root, 'claude-code', '--write');
    assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', 'ctxctl: .mcp.json: is not a regular file (a link or a folder): not read or written\n']);
    fs.rmSync(path.join(root, '.mcp.json'));
    fs.symlinkSync(outside, path.join(root, '.claude'));
    const r2 = setup(root, 'claude-code', '--write');
    assert.deepEqual([r2.code, r2.stderr], [2, 'ctxctl: .claude/settings.json: leads outside the workspace through a symbolic link: not read or written\n']);
    assert.deepEqual(fs.readdirSync(outside), ['victim.json']);
    assert.equal(read(outside, 'victim.json'), '{"keep":1}\n');
    assert.ok(!fs.existsSync(path.join(root, '.mcp.json')), 'not even the file inside was written');
  });

  it('refuses an unknown agent', () => {
    const r = setup(tmp(), 'emacs');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ctxctl: setup: name one agent of claude-code, cursor, vscode, codex \(usage: ctxctl setup /);
  });
});
