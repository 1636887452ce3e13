import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { HOOK_STDIN_MAX_BYTES, readBounded } from '../../../src/cli/hook';
import { CLI, ctl, fingerprint, workspace } from './hostile';

/** The hook's stdin, preview's --out folder and the policy's numbers: bounded, and nothing the user had overwritten. */

describe('red team: the hook reads a bounded stdin', () => {
  it('an event of 20 MB on stdin: one warning line, exit 0, nothing on stdout', () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n\n- Never log card numbers.\n' });
    const event = JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: root, padding: 'p'.repeat(20 * 1024 * 1024) });
    const r = spawnSync(process.execPath, [CLI, 'hook', 'claude-code', '--workspace', root], { input: event, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'ctxctl hook: cannot read the hook event on stdin: it is larger than 4 MiB; not read\n');
  });

  it('an endless writer on stdin: the hook stops reading at the limit and exits 0 (no hang)', async () => {
    const child = spawn(process.execPath, [CLI, 'hook', 'claude-code', '--workspace', os.tmpdir()], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => {}); // EPIPE once the hook has stopped reading
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const pump = () => {
      while (!child.stdin.destroyed && written < 64 * HOOK_STDIN_MAX_BYTES && child.stdin.write(chunk)) written += chunk.length;
      if (!child.stdin.destroyed && written < 64 * HOOK_STDIN_MAX_BYTES) child.stdin.once('drain', pump);
    };
    pump();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), resolve(-1)), 60_000);
      child.on('exit', (c) => (clearTimeout(timer), resolve(c)));
    });
    assert.equal(code, 0, err);
    assert.match(err, /larger than 4 MiB; not read/);
    assert.ok(written < 64 * HOOK_STDIN_MAX_BYTES, 'the writer was stopped, not drained to its end');
  });

  it('readBounded: the whole text up to the limit, an error past it', async () => {
    assert.equal(await readBounded(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4), 'abcd');
    await assert.rejects(readBounded(Readable.from([Buffer.from('ab'), Buffer.from('cde')]), 4), /larger than/);
  });
});

describe('red team: preview --out and the policy numbers', () => {
  it('preview --out W where W holds the user\'s own manifest.json: exit 2 naming it, the file untouched', async () => {
    const root = workspace({ 'README.md': '# app\n', 'W/manifest.json': '{"name":"my-app","version":"1.0.0"}\n', 'W/trace.txt': 'my notes\n' });
    const before = fingerprint(root);
    const r = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'W')]);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.err, `ctxctl: ${path.join(root, 'W', 'manifest.json')}: is not a Context Control manifest: not overwritten (choose another --out folder, or remove it)\n`);
    assert.deepEqual(fingerprint(root), before);
  });

  it('send --out W (dry run) where W holds the user\'s own manifest.json: exit 2 naming it, the file untouched; a second send over its own record goes on', async () => {
    const root = workspace({ 'README.md': '# app\n', 'W/manifest.json': '{"name":"my-app","version":"1.0.0"}\n' });
    const before = fingerprint(root);
    const r = await ctl(['send', '--workspace', root, '--task', 'x', '--out', path.join(root, 'W')]);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.err, `ctxctl: ${path.join(root, 'W', 'manifest.json')}: is not a Context Control manifest: not overwritten (choose another --out folder, or remove it)\n`);
    assert.deepEqual(fingerprint(root), before);
    const own = path.join(root, 'O');
    assert.equal((await ctl(['send', '--workspace', root, '--task', 'x', '--out', own])).code, 0);
    const again = await ctl(['send', '--workspace', root, '--task', 'x', '--out', own]);
    assert.equal(again.code, 0, again.err);
    assert.match(again.err, /dry run, nothing sent; wrote request\.json, manifest\.json and trace\.txt to /);
  });

  it('preview --out W with a trace.txt but no manifest, or a folder named manifest.json: exit 2, untouched; a folder of our own record is rewritten', async () => {
    const root = workspace({ 'README.md': '# app\n', 'A/trace.txt': 'mine\n' });
    fs.mkdirSync(path.join(root, 'B', 'manifest.json'), { recursive: true });
    const before = fingerprint(root);
    const a = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'A')]);
    assert.equal(a.code, 2, a.err);
    assert.match(a.err, /A\/trace\.txt: is there, without a Context Control manifest\.json beside it: not overwritten/);
    const b = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'B')]);
    assert.equal(b.code, 2, b.err);
    assert.match(b.err, /B\/manifest\.json: is not a regular file \(a folder\): not overwritten/);
    assert.deepEqual(fingerprint(root), before);
    const out = path.join(root, 'C');
    assert.equal((await ctl(['preview', '--workspace', root, '--task', 'x', '--out', out])).code, 0);
    const second = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', out]);
    assert.equal(second.code, 0, second.err);
    assert.ok(fs.existsSync(path.join(out, 'manifest.json')));
  });

  for (const [key, value] of [['envelope.window', '1e23'], ['envelope.margin', '9007199254740993'], ['zones.tool_results.max_tokens', '1e300']] as const) {
    it(`${key}: ${value} in .context/policy.yaml: exit 2 at its line, "must be at most"`, async () => {
      const [section, ...rest] = key.split('.');
      const yaml = rest.length === 1 ? `${section}:\n  ${rest[0]}: ${value}\n` : `${section}:\n  ${rest[0]}:\n    ${rest[1]}: ${value}\n`;
      const root = workspace({ '.context/policy.yaml': yaml });
      const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`^ctxctl: [^\\n]*policy\\.yaml:${rest.length + 1}:\\d+: ${key.replace(/\./g, '\\.')} must be at most \\d+, got [^\\n]+\\n$`));
    });
  }

  it('--max-input 1e23: exit 2, "must be at most"', async () => {
    const r = await ctl(['preview', '--workspace', workspace({}), '--task', 'x', '--max-input', '1e23']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^ctxctl: --max-input must be at most 100000000 tokens, got "1e23"/);
  });
});
