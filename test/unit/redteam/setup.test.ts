import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fifo, fingerprint, spawnCli, workspace } from './hostile';

/**
 * `ctxctl setup` on large, deep, odd or dangling configuration: each run is the bundled CLI in a child process (a
 * hang or a crash of V8 fails through the exit code and the timeout), and each asserts what was (not) written.
 */

const SECRET = 'sk-proj-' + 'Zq4vT8mW2nR6yK1pL9sX3cB7'.repeat(2);

/** A one-line .mcp.json of about `mb` MB: many servers, no newline anywhere. */
function oneLine(mb: number): string {
  const members: string[] = [];
  let length = 0;
  for (let i = 0; length < mb * 1024 * 1024; i++) {
    members.push(`${JSON.stringify(`server-${i}`)}:${JSON.stringify({ command: 'node', args: [`/opt/tools/server-${i}.js`, '--port', String(3000 + i)] })}`);
    length += members[i].length + 1;
  }
  return `{"mcpServers":{${members.join(',')}}}`;
}

function assertOneLineError(err: string, pattern: RegExp): void {
  assert.match(err, pattern);
  assert.equal(err.trim().split('\n').length, 1, `one line: ${err}`);
  assert.doesNotMatch(err, /internal error|\n\s+at /);
}

describe('red team: setup on large and odd configuration', () => {
  it('a 4 MB one-line .mcp.json: merged in linear time (exit 0), every server kept, the diff line shown by its start', () => {
    const text = oneLine(4);
    const root = workspace({ '.mcp.json': text });
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.timedOut, false, 'no hang');
    assert.equal(r.code, 0, r.err);
    const merged = JSON.parse(fs.readFileSync(path.join(root, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.equal(Object.keys(merged.mcpServers).length, Object.keys((JSON.parse(text) as { mcpServers: object }).mcpServers).length + 1);
    assert.deepEqual(merged.mcpServers['context-control'], { type: 'stdio', command: 'ctxctl', args: ['mcp'] });
    assert.ok(r.out.length < 20_000, `bounded output: ${r.out.length} characters`);
    assert.match(r.out, /… \(\d+ characters\)/);
  });

  it('a 2.5 MB pretty-printed .mcp.json with a secret near its end: merged (exit 0) without running out of memory, the secret never printed', () => {
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 30_000; i++) servers[`s${i}`] = { command: 'x', args: ['a'] };
    servers.last = { command: 'x', env: { OPENAI_API_KEY: SECRET } };
    const root = workspace({ '.mcp.json': JSON.stringify({ mcpServers: servers }, null, 2) + '\n' });
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 0, r.err);
    assert.ok(!r.out.includes(SECRET) && !r.err.includes(SECRET), 'the secret in the diff context is redacted');
    const merged = JSON.parse(fs.readFileSync(path.join(root, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { env?: unknown }> };
    assert.equal(Object.keys(merged.mcpServers).length, 30_002);
    assert.deepEqual(merged.mcpServers.last.env, { OPENAI_API_KEY: SECRET }, 'the file itself keeps every byte it had');
  });

  it('a .mcp.json above 8 MiB: exit 2, one line naming it, nothing written', () => {
    const root = workspace({ '.mcp.json': oneLine(8.2) });
    const before = fingerprint(root);
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \.mcp\.json: is larger than 8 MiB \([\d.]+ MiB\): not read$/m);
    assert.deepEqual(fingerprint(root), before);
  });

  it('a .mcp.json nested 100 000 deep: exit 2 at the line and column of the first level too deep, nothing written', () => {
    const root = workspace({ '.mcp.json': '{"mcpServers":' + '['.repeat(100_000) });
    const before = fingerprint(root);
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \.mcp\.json:1:\d+: nested deeper than 256 levels; nothing written$/m);
    assert.deepEqual(fingerprint(root), before);
  });

  it('a deep .claude/settings.json after a valid .mcp.json: exit 2, and .mcp.json is not written either', () => {
    const root = workspace({ '.mcp.json': '{"mcpServers": {}}\n', '.claude/settings.json': '{"hooks":' + '{"a":'.repeat(5000) });
    const before = fingerprint(root);
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \.claude\/settings\.json:1:\d+: nested deeper than 256 levels; nothing written$/m);
    assert.deepEqual(fingerprint(root), before);
  });

  for (const [agent, folder, target] of [['claude-code', '.claude', '.claude/settings.json'], ['cursor', '.cursor', '.cursor/mcp.json']] as const) {
    it(`setup ${agent} --write with a dangling ${folder} link: exit 2 naming ${target}, and no .mcp.json written first`, () => {
      const root = workspace({ 'README.md': '# app\n' });
      fs.symlinkSync(path.join(root, 'missing', 'nowhere'), path.join(root, folder));
      const before = fingerprint(root);
      const r = spawnCli(['setup', agent, '--workspace', root, '--write']);
      assert.equal(r.code, 2, r.err);
      assertOneLineError(r.err, new RegExp(`^ctxctl: ${target.replace(/\./g, '\\.')}: leads through a dangling symbolic link: not read or written \\(ENOENT\\)$`, 'm'));
      assert.deepEqual(fingerprint(root), before, 'nothing written, .mcp.json included');
      assert.equal(fs.existsSync(path.join(root, 'missing')), false, 'no folder made at the link target');
    });
  }

  it('a file named .claude where the folder goes: exit 2 before .mcp.json is written', () => {
    const root = workspace({ '.claude': 'not a folder\n' });
    const before = fingerprint(root);
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \.claude\/settings\.json: \.claude is not a folder: not read or written$/m);
    assert.deepEqual(fingerprint(root), before);
  });

  it('a FIFO named .mcp.json: exit 2 at once (no hang), nothing written', () => {
    const root = workspace({});
    fifo(path.join(root, '.mcp.json'));
    const before = fingerprint(root);
    const r = spawnCli(['setup', 'claude-code', '--workspace', root, '--write']);
    assert.equal(r.timedOut, false, 'no hang');
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \.mcp\.json: is not a regular file/m);
    assert.deepEqual(fingerprint(root), before);
  });

  it('--codex-config /dev/zero (an endless device): exit 2 at once naming it, not read', () => {
    const r = spawnCli(['setup', 'codex', '--workspace', workspace({}), '--codex-config', '/dev/zero', '--write']);
    assert.equal(r.timedOut, false, 'no hang');
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: \/dev\/zero: is not a regular file \(a device\): not read$/m);
  });

  it('a Codex config nested 100 000 deep: exit 2 at its line and column; a 6 MB one-line array: merged, the diff bounded', () => {
    const root = workspace({});
    const deep = path.join(root, 'deep.toml');
    fs.writeFileSync(deep, 'a = ' + '['.repeat(100_000) + '\n');
    const r = spawnCli(['setup', 'codex', '--workspace', root, '--codex-config', deep, '--write']);
    assert.equal(r.code, 2, r.err);
    assertOneLineError(r.err, /^ctxctl: .*deep\.toml:1:\d+: invalid TOML: .*nested.*; nothing written$/m);
    assert.equal(fs.readFileSync(deep, 'utf8').length, 100_005, 'untouched');
    const wide = path.join(root, 'wide.toml');
    fs.writeFileSync(wide, 'a = [' + '1,'.repeat(3_000_000) + ']\n');
    const w = spawnCli(['setup', 'codex', '--workspace', root, '--codex-config', wide, '--write']);
    assert.equal(w.timedOut, false);
    assert.equal(w.code, 0, w.err);
    assert.ok(w.out.length < 5000, `${w.out.length} characters`);
    assert.match(fs.readFileSync(wide, 'utf8'), /\n\[mcp_servers\.context-control\]\ncommand = "ctxctl"\nargs = \["mcp", "--answer-chars", "36000"\]\n/);
  });
});
