import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { gatewayInstructions, mergeClaudeGateway, mergeCodexGateway, undoClaudeGateway, undoCodexGateway } from '../../../src/core/agents/gateway-setup';
import { mergeClaudeHook } from '../../../src/core/agents/setup-config';
import { InputError } from '../../../src/core/errors';
import { setupCommand } from '../../../src/cli/setup';

/** `ctxctl setup AGENT --gateway` and `--undo`: exact texts, idempotence, the undo giving back the original bytes. */

const F = '.claude/settings.json';

describe('setup --gateway: Claude Code (.claude/settings.json env.ANTHROPIC_BASE_URL)', () => {
  it('a fresh file: exactly the env entry; --undo removes the file it created', () => {
    const m = mergeClaudeGateway(undefined, F, 8787);
    assert.equal(m.text, '{\n  "env": {\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8787"\n  }\n}\n');
    assert.deepEqual(m.notes, [`${F}: added env.ANTHROPIC_BASE_URL = http://127.0.0.1:8787`]);
    const u = undoClaudeGateway(m.text, F);
    assert.equal(u.changed, true);
    assert.equal(u.deleted, true);
  });

  it('an existing file with comments and other entries: one member added, every other byte kept; idempotent; --undo gives back the exact bytes', () => {
    const original = '// my settings\n{\n  "permissions": { "allow": ["Bash(npm test)"] }, // keep this\n  "env": {\n    "DEBUG": "1" // mine\n  }\n}\n';
    const m = mergeClaudeGateway(original, F, 9000);
    assert.equal(m.text, '// my settings\n{\n  "permissions": { "allow": ["Bash(npm test)"] }, // keep this\n  "env": {\n    "DEBUG": "1", // mine\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:9000"\n  }\n}\n');
    assert.equal(mergeClaudeGateway(m.text, F, 9000).changed, false, 'a second run changes nothing');
    const u = undoClaudeGateway(m.text, F);
    assert.equal(u.text, original);
    assert.equal(u.deleted, undefined);
  });

  it('no env yet: the env object added after the last member, removed whole by --undo', () => {
    const original = '{\n  "model": "opus"\n}\n';
    const m = mergeClaudeGateway(original, F, 8787);
    assert.equal(m.text, '{\n  "model": "opus",\n  "env": {\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8787"\n  }\n}\n');
    assert.equal(undoClaudeGateway(m.text, F).text, original);
  });

  it('an empty env or an empty object: the two pre-images cannot be told apart (documented)', () => {
    const original = '{\n  "model": "opus",\n  "env": {}\n}\n';
    const m = mergeClaudeGateway(original, F, 8787);
    assert.equal((parseJsonc(m.text) as { env: Record<string, string> }).env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:8787');
    // `"env": {}` and no env at all merge to the same text: --undo gives the one without env (only an empty object lost).
    assert.equal(undoClaudeGateway(m.text, F).text, '{\n  "model": "opus"\n}\n');
    // `{}` merges to the very text of a fresh file: the two cannot be told apart, and --undo removes the file.
    assert.equal(mergeClaudeGateway('{}\n', F, 8787).text, mergeClaudeGateway(undefined, F, 8787).text);
  });

  it('with the SessionStart hook (plain setup) in the same file: both stay independent', () => {
    const hooked = mergeClaudeHook(undefined, F, { command: 'ctxctl', args: [] }).text;
    const m = mergeClaudeGateway(hooked, F, 8787);
    assert.equal(undoClaudeGateway(m.text, F).text, hooked);
  });

  it('a base URL the user set is left alone, and --undo does not remove it', () => {
    const theirs = '{ "env": { "ANTHROPIC_BASE_URL": "https://proxy.example.com" } }\n';
    const m = mergeClaudeGateway(theirs, F, 8787);
    assert.equal(m.changed, false);
    assert.match(m.notes[0], /already set to "https:\/\/proxy.example.com"; left as it is/);
    assert.equal(undoClaudeGateway(theirs, F).changed, false);
  });

  it('an entry edited since --gateway wrote it is not removed by --undo; a non-object env or bad JSON is refused', () => {
    const moved = '{\n  "env": {\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:8787",\n    "DEBUG": "1"\n  }\n}\n';
    const u = undoClaudeGateway(moved, F);
    assert.equal(u.changed, false);
    assert.match(u.notes[0], /changed or moved/);
    assert.throws(() => mergeClaudeGateway('{ "env": [] }', F, 8787), (e) => e instanceof InputError && /"env" must be an object/.test(e.message));
    assert.throws(() => mergeClaudeGateway('{ "env": ', F, 8787), InputError);
  });
});

const C = '/home/u/.codex/config.toml';
const TOP = '# Context Control gateway (ctxctl setup codex --gateway): Codex uses the provider below, and lets long outputs through whole (the gateway trims them keeping the errors)';
const TABLE = '[model_providers.ctxctl]\nname = "OpenAI through Context Control"\nbase_url = "http://127.0.0.1:8787/v1"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n';

describe('setup --gateway: Codex (config.toml model_providers.ctxctl)', () => {
  it('a fresh file: the exact text, which Codex reads as the gateway provider; --undo empties it and removes the file', () => {
    const m = mergeCodexGateway(undefined, C, 8787);
    assert.equal(m.text, `${TOP}\nmodel_provider = "ctxctl"\ntool_output_token_limit = 200000\n\n# Context Control gateway (ctxctl setup codex --gateway)\n${TABLE}`);
    const t = JSON.parse(JSON.stringify(parseToml(m.text))) as Record<string, unknown>;
    assert.equal(t.model_provider, 'ctxctl');
    assert.equal(t.tool_output_token_limit, 200000);
    assert.deepEqual(t.model_providers, { ctxctl: { name: 'OpenAI through Context Control', base_url: 'http://127.0.0.1:8787/v1', wire_api: 'responses', env_key: 'OPENAI_API_KEY' } });
    const u = undoCodexGateway(m.text, C);
    assert.equal(u.text, '');
    assert.equal(u.deleted, true);
  });

  it('an existing file with comments and tables: top-level keys go first (not into the last table), the table last; idempotent; --undo exact', () => {
    for (const original of ['# mine\nmodel = "gpt-5-codex"\n\n[mcp_servers.github]\ncommand = "npx" # a comment\n', 'model = "o3"\n[profiles.x]\nmodel = "o4"', 'model = "o3"\n\n']) {
      const m = mergeCodexGateway(original, C, 8787);
      const t = JSON.parse(JSON.stringify(parseToml(m.text))) as { model_provider: string; tool_output_token_limit: number; mcp_servers?: unknown; profiles?: Record<string, Record<string, unknown>> };
      assert.equal(t.model_provider, 'ctxctl');
      assert.equal(t.tool_output_token_limit, 200000);
      if (t.profiles) assert.deepEqual(t.profiles.x, { model: 'o4' }, 'nothing fell into the last table');
      assert.ok(m.text.includes(original), 'every original byte kept, in one piece');
      assert.equal(mergeCodexGateway(m.text, C, 8787).changed, false, 'idempotent');
      assert.equal(undoCodexGateway(m.text, C).text, original, JSON.stringify(original));
    }
  });

  it('a model_provider or a lower limit the user set is left alone and reported; --undo removes only what was added', () => {
    const original = 'model_provider = "azure"\ntool_output_token_limit = 10000\n';
    const m = mergeCodexGateway(original, C, 8787);
    assert.equal(m.text, `${original}\n# Context Control gateway (ctxctl setup codex --gateway)\n${TABLE}`);
    assert.match(m.notes.join('\n'), /model_provider is "azure"; left as it is/);
    assert.match(m.notes.join('\n'), /tool_output_token_limit is 10000; left as it is/);
    assert.equal(undoCodexGateway(m.text, C).text, original);
  });

  it('after the plain setup appended its own block: --undo still takes out only the gateway lines', () => {
    const original = 'model = "o3"\n';
    const m = mergeCodexGateway(original, C, 8787).text;
    const later = `${m}\n# Context Control (ctxctl setup codex)\n[mcp_servers.context-control]\ncommand = "ctxctl"\nargs = ["mcp"]\n`;
    assert.equal(undoCodexGateway(later, C).text, `${original}\n# Context Control (ctxctl setup codex)\n[mcp_servers.context-control]\ncommand = "ctxctl"\nargs = ["mcp"]\n`);
  });

  it('an edited gateway block is not removed; invalid TOML is refused with its position', () => {
    const m = mergeCodexGateway(undefined, C, 8787).text.replace('wire_api = "responses"', 'wire_api = "chat"');
    const u = undoCodexGateway(m, C);
    assert.equal(u.changed, true, 'the top lines are still exactly ours');
    assert.throws(() => mergeCodexGateway('model = ', C, 8787), (e) => e instanceof InputError && e.line === 1);
  });
});

describe('setup --gateway: Cline, Continue, Copilot (instructions only)', () => {
  it('prints the base URL where each reads it, with the port', () => {
    assert.ok(gatewayInstructions('continue', 9001).includes('    apiBase: http://127.0.0.1:9001/v1'));
    assert.match(gatewayInstructions('cline', 8787).join('\n'), /OpenAI Compatible, Base URL: http:\/\/127\.0\.0\.1:8787\/v1/);
    assert.match(gatewayInstructions('copilot', 8787).join('\n'), /Chat: Manage Language Models.*\n.*\n {2}http:\/\/127\.0\.0\.1:8787\/v1\/chat\/completions/);
  });
});

describe('ctxctl setup --gateway on files', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-gw-setup-'));
    dirs.push(d);
    return d;
  };
  const run = (...argv: string[]) => {
    let out = '';
    const code = setupCommand(argv, (s) => (out += s), { CODEX_HOME: undefined });
    return { code, out };
  };

  it('claude-code: the diff without --write, nothing written; --write writes; --undo --write gives back the exact bytes', () => {
    const root = tmp();
    fs.mkdirSync(path.join(root, '.claude'));
    const original = '{\n  // hooks below\n  "hooks": {}\n}\n';
    fs.writeFileSync(path.join(root, F), original);
    const dry = run('claude-code', '--gateway', '--port', '8788', '--workspace', root);
    assert.match(dry.out, /\+ {4}"ANTHROPIC_BASE_URL": "http:\/\/127\.0\.0\.1:8788"/);
    assert.match(dry.out, /nothing written: run `ctxctl setup claude-code --gateway --port 8788 --write`/);
    assert.equal(fs.readFileSync(path.join(root, F), 'utf8'), original);
    assert.equal(run('claude-code', '--gateway', '--port', '8788', '--workspace', root, '--write').code, 0);
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, F), 'utf8').replace('// hooks below', '')).env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:8788');
    const undo = run('claude-code', '--gateway', '--undo', '--workspace', root, '--write');
    assert.match(undo.out, /wrote \.claude\/settings\.json/);
    assert.equal(fs.readFileSync(path.join(root, F), 'utf8'), original);
  });

  it('claude-code in an empty workspace: --undo removes the file --gateway created', () => {
    const root = tmp();
    run('claude-code', '--gateway', '--workspace', root, '--write');
    assert.ok(fs.existsSync(path.join(root, F)));
    assert.match(run('claude-code', '--gateway', '--undo', '--workspace', root, '--write').out, /removed \.claude\/settings\.json/);
    assert.equal(fs.existsSync(path.join(root, F)), false);
  });

  it('codex --codex-config FILE: written, then undone to the exact bytes', () => {
    const root = tmp();
    const file = path.join(root, 'config.toml');
    fs.writeFileSync(file, 'model = "o3" # mine\n');
    assert.equal(run('codex', '--gateway', '--codex-config', file, '--workspace', root, '--write').code, 0);
    assert.equal((parseToml(fs.readFileSync(file, 'utf8')) as { model_provider: string }).model_provider, 'ctxctl');
    run('codex', '--gateway', '--undo', '--codex-config', file, '--workspace', root, '--write');
    assert.equal(fs.readFileSync(file, 'utf8'), 'model = "o3" # mine\n');
  });

  it('a bad port and --port without --gateway are input errors', () => {
    const root = tmp();
    assert.throws(() => run('claude-code', '--gateway', '--port', '70000', '--workspace', root), InputError);
    assert.throws(() => run('claude-code', '--gateway', '--port', 'x', '--workspace', root), InputError);
    assert.throws(() => run('claude-code', '--port', '8787', '--workspace', root), InputError);
    assert.throws(() => run('cursor', '--gateway', '--workspace', root), InputError);
  });

  it('red team: a .claude/settings.json hard-linked to a file outside the workspace is refused, nothing written', () => {
    const root = tmp();
    const outside = path.join(tmp(), 'settings.json');
    fs.writeFileSync(outside, '{}\n');
    fs.mkdirSync(path.join(root, '.claude'));
    fs.linkSync(outside, path.join(root, F));
    assert.throws(() => run('claude-code', '--gateway', '--workspace', root, '--write'), (e) => e instanceof InputError && /not read or written/.test(e.message));
    assert.equal(fs.readFileSync(outside, 'utf8'), '{}\n');
  });

  it('red team: a .claude folder linked outside the workspace is refused, nothing written there', () => {
    const root = tmp();
    const home = tmp();
    fs.symlinkSync(home, path.join(root, '.claude'));
    assert.throws(() => run('claude-code', '--gateway', '--workspace', root, '--write'), InputError);
    assert.deepEqual(fs.readdirSync(home), []);
  });
});
