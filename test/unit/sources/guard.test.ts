import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { mostlySecrets, requireInWorkspace, resolveInWorkspace, within, type PathDecision } from '../../../src/core/sources/guard';
import { InputError } from '../../../src/core/errors';

/** The workspace guard itself: every kind of refusal, and what it accepts. */

function tmp(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function ws(): { root: string; outside: string } {
  const root = tmp('ctxctl-guard-ws-');
  const outside = tmp('ctxctl-guard-out-');
  fs.writeFileSync(path.join(outside, 'outside.txt'), 'OUTSIDE\n');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'a.md'), '# A\n');
  fs.writeFileSync(path.join(root, '.env'), 'API_KEY=x\n');
  return { root, outside };
}

const kind = (d: PathDecision) => (d.ok ? 'ok' : d.kind);

describe('workspace guard (resolveInWorkspace)', () => {
  it('accepts a workspace file, relative or absolute, with its relative path and size', () => {
    const { root } = ws();
    const d = resolveInWorkspace('docs/a.md', { root });
    assert.deepEqual(d, { ok: true, abs: path.join(root, 'docs/a.md'), real: path.join(root, 'docs/a.md'), rel: 'docs/a.md', exists: true, size: 4 });
    assert.equal(kind(resolveInWorkspace(path.join(root, 'docs/a.md'), { root })), 'ok');
    assert.equal(kind(resolveInWorkspace('docs/../docs/a.md', { root })), 'ok');
  });

  it('accepts a link inside the workspace to another inside file, reporting the file it leads to', () => {
    const { root } = ws();
    fs.symlinkSync('docs/a.md', path.join(root, 'alias.md'));
    const d = resolveInWorkspace('alias.md', { root });
    assert.ok(d.ok);
    assert.equal(d.rel, 'docs/a.md');
    assert.equal(d.abs, path.join(root, 'alias.md'));
  });

  it('refuses a path outside, by ../ or absolute, without looking at it', () => {
    const { root, outside } = ws();
    const up = resolveInWorkspace(`../${path.basename(outside)}/outside.txt`, { root });
    assert.deepEqual([kind(up), up.ok ? '' : up.reason], ['outside', `../${path.basename(outside)}/outside.txt: is outside the workspace: refused, never read`]);
    assert.equal(kind(resolveInWorkspace('/etc/passwd', { root })), 'outside');
    assert.equal(kind(resolveInWorkspace('/nonexistent/x', { root })), 'outside');
  });

  it('refuses a link leading outside (a file, /etc/passwd, a linked folder on the way)', () => {
    const { root, outside } = ws();
    fs.symlinkSync(path.join(outside, 'outside.txt'), path.join(root, 'out.txt'));
    fs.symlinkSync('/etc/passwd', path.join(root, 'passwd.txt'));
    fs.symlinkSync(outside, path.join(root, 'vendor'));
    for (const p of ['out.txt', 'passwd.txt', 'vendor/outside.txt', 'vendor/not-yet.txt']) {
      const d = resolveInWorkspace(p, { root, mayBeMissing: true });
      assert.equal(kind(d), 'link-outside', p);
      assert.ok(!d.ok && d.reason === `${p}: leads outside the workspace through a symbolic link: refused, never read`);
    }
  });

  it('refuses secret files by name, and links whose target is a secret file', () => {
    const { root } = ws();
    fs.symlinkSync('.env', path.join(root, 'x.txt'));
    assert.deepEqual([kind(resolveInWorkspace('.env', { root })), kind(resolveInWorkspace('missing.pem', { root }))], ['secret', 'secret']);
    const d = resolveInWorkspace('x.txt', { root });
    assert.ok(!d.ok && d.kind === 'secret' && d.why === 'is a link to a secret file (.env): refused, never read');
    assert.equal(kind(resolveInWorkspace('.env', { root, refuseSecrets: false })), 'ok');
    assert.equal(kind(resolveInWorkspace('.env.example', { root, mayBeMissing: true })), 'ok');
  });

  it('refuses a FIFO (never opened), a folder where a file is expected, a file where a folder is', () => {
    const { root } = ws();
    assert.equal(spawnSync('mkfifo', [path.join(root, 'pipe.log')]).status, 0);
    const fifo = resolveInWorkspace('pipe.log', { root });
    assert.ok(!fifo.ok && fifo.kind === 'special' && fifo.why === 'is a FIFO (named pipe): never opened');
    assert.equal(kind(resolveInWorkspace('docs', { root })), 'folder');
    assert.equal(kind(resolveInWorkspace('docs', { root, expect: 'folder' })), 'ok');
    assert.equal(kind(resolveInWorkspace('docs', { root, expect: 'any' })), 'ok');
    assert.equal(kind(resolveInWorkspace('docs/a.md', { root, expect: 'folder' })), 'not-folder');
    assert.equal(kind(resolveInWorkspace('/dev/null', { root, outsideAsNamed: true })), 'special');
  });

  it('missing: refused unless allowed; a dangling link and one below a dangling link are refused', () => {
    const { root } = ws();
    assert.equal(kind(resolveInWorkspace('nope.md', { root })), 'missing');
    const later = resolveInWorkspace('new/dir/file.json', { root, mayBeMissing: true });
    assert.ok(later.ok && !later.exists && later.rel === 'new/dir/file.json');
    fs.symlinkSync('gone', path.join(root, 'dangling'));
    assert.equal(kind(resolveInWorkspace('dangling', { root, mayBeMissing: true })), 'missing');
    assert.equal(kind(resolveInWorkspace('dangling/x.json', { root, mayBeMissing: true })), 'missing');
    fs.symlinkSync('loop', path.join(root, 'loop'));
    assert.equal(kind(resolveInWorkspace('loop', { root })), 'unreadable');
  });

  it('writes: a link (even inside) and a hard-linked file are refused; a plain or new file is fine', () => {
    const { root, outside } = ws();
    fs.writeFileSync(path.join(root, 'plain.json'), '{}');
    fs.linkSync(path.join(outside, 'outside.txt'), path.join(root, 'hard.json'));
    fs.symlinkSync('plain.json', path.join(root, 'soft.json'));
    assert.equal(kind(resolveInWorkspace('plain.json', { root, access: 'write' })), 'ok');
    assert.equal(kind(resolveInWorkspace('new.json', { root, access: 'write', mayBeMissing: true })), 'ok');
    const hard = resolveInWorkspace('hard.json', { root, access: 'write' });
    assert.ok(!hard.ok && hard.kind === 'hard-link' && hard.why === 'has 2 hard links (another name may be outside the workspace): refused, not written');
    assert.equal(kind(resolveInWorkspace('hard.json', { root })), 'ok', 'reading a hard-linked file is fine: its content is the workspace file');
    assert.equal(kind(resolveInWorkspace('soft.json', { root, access: 'write' })), 'link');
  });

  it('allowed roots (the offload store) are inside too; named outside paths are taken as named only when asked', () => {
    const { root, outside } = ws();
    const store = tmp('ctxctl-guard-store-');
    fs.writeFileSync(path.join(store, 'r.json'), '{}');
    assert.equal(kind(resolveInWorkspace(path.join(store, 'r.json'), { root })), 'outside');
    assert.equal(kind(resolveInWorkspace(path.join(store, 'r.json'), { root, allowedRoots: [store] })), 'ok');
    fs.symlinkSync(path.join(store, 'r.json'), path.join(root, 'to-store.json'));
    assert.equal(kind(resolveInWorkspace('to-store.json', { root, allowedRoots: [store] })), 'ok');
    const named = resolveInWorkspace(path.join(outside, 'outside.txt'), { root, outsideAsNamed: true });
    assert.ok(named.ok && named.rel === undefined);
    fs.symlinkSync(path.join(outside, 'outside.txt'), path.join(root, 'out.txt'));
    assert.equal(kind(resolveInWorkspace('out.txt', { root, outsideAsNamed: true })), 'link-outside', 'named inside: its link may not lead out');
    assert.equal(kind(resolveInWorkspace(path.join(outside, '.env'), { root, outsideAsNamed: true, mayBeMissing: true })), 'secret');
  });

  it('relative paths resolve against base; an empty path or a NUL is refused', () => {
    const { root } = ws();
    assert.equal(kind(resolveInWorkspace('a.md', { root, base: path.join(root, 'docs') })), 'ok');
    assert.equal(kind(resolveInWorkspace('  ', { root })), 'empty');
    assert.equal(kind(resolveInWorkspace('a\0b', { root })), 'empty');
  });

  it('requireInWorkspace throws an InputError naming the path (ctxctl prints it as one line, exit 2)', () => {
    const { root } = ws();
    assert.throws(() => requireInWorkspace('.env', { root }), (e: unknown) => e instanceof InputError && e.toString() === '.env: is a secret file (by name): refused, never read');
    assert.equal(requireInWorkspace('docs/a.md', { root }).rel, 'docs/a.md');
  });

  it('within and mostlySecrets', () => {
    assert.deepEqual([within('/a/b', '/a/b'), within('/a/b', '/a/b/c'), within('/a/b', '/a/bc'), within('/a/b', '/a/b/..x'), within('/a/b', '/a')], [true, true, false, true, false]);
    const env = 'OPENAI_API_KEY=sk-proj-9Xk2LmP4qR7sT1uV3wY5zA8bC0dE2fG4hJ6kL8mN\nAWS_ACCESS_KEY_ID=AKIAY34FZKBOKMUTVV7A\n# comment\n';
    assert.equal(mostlySecrets(env), true);
    assert.equal(mostlySecrets(`# Login fails\nThe gateway wants X-Api-Key: sk-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\nsee the logs\n`), false);
  });
});
