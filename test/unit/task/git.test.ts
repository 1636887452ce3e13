import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { gitReader, parseLog } from '../../../src/core/task/git';
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

  it('reads porcelain status (renames once) through the injected runner, and nothing when git fails', () => {
    const calls: string[][] = [];
    const reader = gitReader('/ws', (args) => {
      calls.push(args);
      if (args[0] === 'rev-parse') return '\n';
      if (args[0] === 'status') return ' M src/a.ts\0?? notes.md\0R  src/new.ts\0src/old.ts\0';
      throw new Error('no commits');
    });
    assert.deepEqual(reader.workingTree(), ['notes.md', 'src/a.ts', 'src/new.ts']);
    assert.deepEqual(reader.recentCommits(3), []);
    assert.deepEqual(calls.map((c) => c[0]), ['rev-parse', 'status', 'log']);
    const broken = gitReader('/ws', () => {
      throw new Error('not a git repository');
    });
    assert.deepEqual([broken.workingTree(), broken.recentCommits(5)], [[], []]);
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
