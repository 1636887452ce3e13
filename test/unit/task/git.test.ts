import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { blobSha, gitReader, parseLog } from '../../../src/core/task/git';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import { headOf, materialize } from '../relevance/repos';

const LOG = [
  '\0commit 1111111aaaaaaa\0Release the cart lock in finally',
  '',
  'diff --git a/src/lock.ts b/src/lock.ts',
  'index 1..2 100644',
  '--- a/src/lock.ts',
  '+++ b/src/lock.ts',
  '@@ -3,3 +3,4 @@ export function f() {',
  '   a();',
  '-  b();',
  '+  try { b(); }',
  '+  finally { c(); }',
  '\0commit 2222222bbbbbbb\0Initial import',
  '',
].join('\n');

describe('changed files through git', () => {
  it('parses `git log -p` into one change per commit and file, hunks with their new-file start', () => {
    assert.deepEqual(parseLog(LOG), [
      { commit: '1111111aaaaaaa', subject: 'Release the cart lock in finally', path: 'src/lock.ts', hunks: [{ header: '@@ -3,3 +3,4 @@ export function f() {', newStart: 3, lines: ['   a();', '-  b();', '+  try { b(); }', '+  finally { c(); }'] }] },
    ]);
  });

  it('reads the index as data (stat, then the blob hash) and untracked files through the injected runner; nothing when git fails', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-git-index-'));
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export const a = 2;\n');
    fs.writeFileSync(path.join(ws, 'same.md'), 'same\n');
    fs.writeFileSync(path.join(ws, 'notes.md'), 'new\n');
    const entry = (p: string, sha: string, mtime: number, size: number) => `100644 ${sha} 0\t${p}\n  ctime: ${mtime}:0\n  mtime: ${mtime}:0\n  dev: 1\tino: 2\n  uid: 0\tgid: 0\n  size: ${size}\tflags: 0\n`;
    const index = [
      entry('same.md', blobSha(Buffer.from('same\n')), 0, 0), // racily clean: size 0 recorded, the hash says unchanged
      entry('src/a.ts', blobSha(Buffer.from('export const a = 1;\n')), 1, 20), // same size, other mtime: hashed, differs
      entry('gone.md', blobSha(Buffer.from('x')), 1, 1),
    ].join('');
    const calls: string[][] = [];
    const reader = gitReader(ws, (args) => {
      calls.push(args);
      if (args[0] === 'rev-parse') return '\n';
      if (args[0] === 'ls-files' && args.includes('--stage')) return index;
      if (args[0] === 'ls-files') return 'notes.md\0';
      throw new Error('no commits');
    });
    assert.deepEqual(reader.workingTree(), ['gone.md', 'notes.md', 'src/a.ts']);
    assert.deepEqual(reader.recentCommits(3), []);
    assert.deepEqual(calls.map((c) => c.filter((a) => !a.startsWith('-') && !a.includes('=')).slice(0, 1)[0]), ['rev-parse', 'ls-files', 'ls-files', 'log']);
    assert.equal(calls.some((c) => c.includes('status') || c.includes('diff')), false, 'never a command that runs clean filters');
    const broken = gitReader('/ws', () => {
      throw new Error('not a git repository');
    });
    assert.deepEqual([broken.workingTree(), broken.recentCommits(5)], [[], []]);
  });

  it('a hostile repository config (a clean filter, a signature program) runs nothing', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-git-hostile-'));
    const marker = path.join(ws, '..', `${path.basename(ws)}-PWNED`);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', '-C', ws, ...args], { stdio: 'ignore' });
    git('init', '-q');
    fs.writeFileSync(path.join(ws, 'README.md'), 'x\n');
    fs.writeFileSync(path.join(ws, '.gitattributes'), '* filter=evil\n');
    git('add', '-A');
    git('commit', '-qm', 'init');
    git('config', 'filter.evil.clean', `sh -c "touch ${marker}; cat"`);
    git('config', 'log.showSignature', 'true');
    git('config', 'gpg.program', `sh -c "touch ${marker}"`);
    fs.appendFileSync(path.join(ws, 'README.md'), 'y\n');
    fs.utimesSync(path.join(ws, 'README.md'), new Date('2020-01-01'), new Date('2020-01-01'));
    const reader = gitReader(ws);
    assert.deepEqual(reader.workingTree(), ['README.md']);
    assert.equal(reader.recentCommits(3).length, 2);
    assert.equal(fs.existsSync(marker), false, 'no filter or signature program ran');
  });

  it('on a real repository: working-tree changes and the last commits with hunks; a folder inside a repository reads none', () => {
    const dir = materialize('monorepo', [{ path: 'services/checkout/src/placeOrder.ts', before: 'export const placeOrder = 1;\n', message: 'Release the cart lock in finally' }], { 'services/inventory/src/reserveStock.ts': '// edited\n' });
    const reader = gitReader(dir);
    assert.deepEqual(reader.workingTree(), ['services/inventory/src/reserveStock.ts']);
    const commits = reader.recentCommits(1);
    assert.deepEqual(commits.map((c) => [c.commit.slice(0, 7), c.subject, c.path]), [[headOf(dir), 'Release the cart lock in finally', 'services/checkout/src/placeOrder.ts']]);
    assert.ok(commits[0].hunks[0].lines.includes('+    await releaseCartLock(redis, cartId, token);'));
    assert.deepEqual(gitReader(path.join(dir, 'services')).workingTree(), []);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
