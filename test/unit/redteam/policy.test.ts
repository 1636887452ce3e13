import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { openOffloadStore, STORE_MARKER } from '../../../src/core/offload/store';
import { ctl, fifo, fingerprint, previewJson, warningLines, workspace } from './hostile';

const DAY = 24 * 3600 * 1000;
const policy = (dir: string) => `envelope: { window: 14000, output_reserve: 2000, margin: 1000 }\noffload:\n  dir: ${JSON.stringify(dir)}\n`;
/** A workspace whose policy sets offload.dir, with a repository's usual files. */
function withOffloadDir(dir: string, extra: Record<string, string> = {}): string {
  return workspace({ 'README.md': '# Project\n', 'docs/guide.md': '# Guide\n', '.git/HEAD': 'ref: refs/heads/main\n', '.git/config': '[core]\n', '.context/policy.yaml': policy(dir), ...extra });
}
/** Old enough for retention (7 days by default) to want it gone. */
function age(abs: string, days: number): void {
  const when = new Date(Date.now() - days * DAY);
  fs.utimesSync(abs, when, when);
}

describe('red team: policy (the offload store)', () => {
  const refusals: [string, string][] = [
    ['.', 'is the workspace folder itself: refused'],
    ['.git', 'is inside .git: refused'],
    ['.git/objects', 'is inside .git: refused'],
    ['.context', 'is .context itself: refused (use a folder below it, e.g. .context/offload)'],
    ['docs', 'holds files Context Control did not write (guide.md) and no .context-control-offload.json: refused, nothing written or removed'],
  ];
  for (const [dir, why] of refusals) {
    it(`offload.dir "${dir}" is refused with exit 2 at the policy's line; nothing is written or removed`, async () => {
      const root = withOffloadDir(dir);
      for (const f of ['README.md', 'docs/guide.md', '.git/HEAD']) age(path.join(root, f), 30);
      const before = fingerprint(root);
      for (const args of [['preview', '--workspace', root, '--task', 'x'], ['offload', 'clear', '--workspace', root], ['offload', 'list', '--workspace', root]]) {
        const r = await ctl(args);
        assert.deepEqual([r.code, r.err], [2, `ctxctl: .context/policy.yaml:3:8: offload.dir "${dir}" ${why}\n`], args.join(' '));
      }
      assert.deepEqual(fingerprint(root), before);
    });
  }

  it('offload.dir through a symbolic link that leads out of the workspace is refused; the outside folder is untouched', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-outside-'));
    fs.writeFileSync(path.join(outside, 'precious.txt'), 'keep me');
    age(path.join(outside, 'precious.txt'), 30);
    const root = withOffloadDir('store');
    fs.symlinkSync(outside, path.join(root, 'store'));
    const r = await ctl(['offload', 'clear', '--workspace', root]);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/policy.yaml:3:8: offload.dir "store" leads outside the workspace (through a symbolic link or a path): refused\n']);
    assert.equal(fs.readFileSync(path.join(outside, 'precious.txt'), 'utf8'), 'keep me');
  });

  it('the default .context/offload committed as a link to the workspace root is refused when the store is used (no policy line to name); a preview that writes nothing there is not blocked', async () => {
    const root = workspace({ 'README.md': '# Project\n' });
    fs.mkdirSync(path.join(root, '.context'));
    fs.symlinkSync('..', path.join(root, '.context', 'offload'));
    const preview = await ctl(['preview', '--workspace', root, '--task', 'x']);
    assert.equal(preview.code, 0, preview.err);
    const r = await ctl(['offload', 'clear', '--workspace', root]);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/offload: the offload store is the workspace folder itself: refused\n']);
    assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# Project\n');
  });

  it('a user file in the default .context/offload does not block a preview that offloads nothing, and stays', async () => {
    const root = workspace({ 'README.md': '# Project\n', '.context/offload/notes.txt': 'mine\n' });
    const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
    assert.equal(r.code, 0, r.err);
    assert.equal(fs.readFileSync(path.join(root, '.context', 'offload', 'notes.txt'), 'utf8'), 'mine\n');
  });

  it('offload.dir absolute or with ".." is refused by the policy parser at its line', async () => {
    for (const [dir, col] of [['/tmp', 8], ['../elsewhere', 8]] as const) {
      const r = await ctl(['preview', '--workspace', withOffloadDir(dir), '--task', 'x']);
      assert.deepEqual([r.code, r.err], [2, `ctxctl: .context/policy.yaml:3:${col}: offload.dir must be a folder inside the workspace (relative, no ".."), got "${dir}"\n`]);
    }
  });

  it('retention and clear delete only files in the store\'s own record: a user file in .context/offload/ survives', async () => {
    const root = workspace({ 'README.md': '# Project\n' });
    const dir = path.join(root, '.context', 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 });
    const ours = store.put('search', { text: 'old result' });
    fs.writeFileSync(path.join(dir, 'my-notes.md'), 'the user wrote this');
    age(ours.abs, 30);
    age(path.join(dir, 'my-notes.md'), 30);
    // A new store's first write runs retention: the old recorded result goes, the user's file stays.
    openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }).put('next', { text: 'new result' });
    assert.equal(fs.existsSync(ours.abs), false);
    assert.equal(fs.readFileSync(path.join(dir, 'my-notes.md'), 'utf8'), 'the user wrote this');
    const r = await ctl(['offload', 'clear', '--workspace', root]);
    assert.deepEqual([r.code, r.out], [0, `Removed 1 files (10 bytes) from ${dir}\n`]);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.context-control-offload.json', '.gitignore', 'my-notes.md']);
  });

  it('a committed record naming files outside the store ("../policy.yaml", "/etc/passwd") deletes nothing outside it', async () => {
    const root = workspace({ '.context/policy.yaml': 'offload: { retention_days: 7 }\n', '.context/offload/.gitignore': '*\n' });
    const dir = path.join(root, '.context', 'offload');
    fs.writeFileSync(path.join(dir, STORE_MARKER), JSON.stringify({ store: 'context-control offload store', files: ['../policy.yaml', '/etc/passwd', '..', '.'] }));
    const before = fingerprint(root);
    const r = await ctl(['offload', 'clear', '--workspace', root]);
    assert.deepEqual([r.code, r.out], [0, `Removed 0 files (0 bytes) from ${dir}\n`]);
    assert.deepEqual(fingerprint(root), before);
  });

  it('ctxctl offload clear --dir on a folder that is not a store (no marker) removes nothing, exit 2', async () => {
    const root = workspace({ 'src/a.ts': 'export {};\n', 'src/b.ts': 'export {};\n' });
    const before = fingerprint(root);
    const r = await ctl(['offload', 'clear', '--dir', path.join(root, 'src')]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'src')}: not an offload store (no .context-control-offload.json): nothing removed\n`]);
    assert.deepEqual(fingerprint(root), before);
  });

  it('a store entry that is a symbolic link (to README.md) is neither listed nor removed, nor is its target', async () => {
    const root = workspace({ 'README.md': '# Project\n' });
    const dir = path.join(root, '.context', 'offload');
    openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }).put('a', { text: 'x' });
    fs.symlinkSync(path.join(root, 'README.md'), path.join(dir, 'readme-link.txt'));
    fs.writeFileSync(path.join(dir, STORE_MARKER), JSON.stringify({ store: 'context-control offload store', files: ['readme-link.txt'] }));
    const r = await ctl(['offload', 'clear', '--workspace', root]);
    assert.deepEqual([r.code, r.out], [0, `Removed 0 files (0 bytes) from ${dir}\n`]);
    assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# Project\n');
    assert.ok(fs.lstatSync(path.join(dir, 'readme-link.txt')).isSymbolicLink());
  });

  it('--policy given a folder: exit 2, one line naming it', async () => {
    const root = workspace({ 'pol/policy.yaml': 'envelope: { window: 1 }\n' });
    const r = await ctl(['preview', '--workspace', root, '--task', 'x', '--policy', path.join(root, 'pol')]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'pol')}: is a folder, not a policy file (YAML)\n`]);
  });

  it('--policy given a FIFO is refused without opening it; .context/policy.yaml as a FIFO is skipped with a warning', async () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n' });
    fifo(path.join(root, 'pipe.yaml'));
    const r = await ctl(['preview', '--workspace', root, '--task', 'x', '--policy', path.join(root, 'pipe.yaml')]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'pipe.yaml')}: is a FIFO (named pipe), not a policy file: never opened\n`]);
    fifo(path.join(root, '.context', 'policy.yaml'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), ['.context/policy.yaml: skipped: a FIFO (named pipe), never opened; the default policy applies']);
  });

  it('.context/policy.yaml as a folder: exit 2, one line', async () => {
    const root = workspace({ '.context/policy.yaml/x': 'y' });
    const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/policy.yaml: is a folder, not a policy file (YAML)\n']);
  });
});
