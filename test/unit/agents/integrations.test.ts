import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { findWorkspaceRoot, type EntryKind } from '../../../src/core/agents/find-root';
import { clientLimit, detectClient } from '../../../src/core/agents/hook-size';
import { cutAnswer } from '../../../src/core/agents/read-only-answer';
import { fileClass, isIdentifierQuery, rankSearch, searchHead, type FileMatches } from '../../../src/core/agents/search-rank';
import { skippedPinEntries, validEntries } from '../../../src/core/sources/pin-entries';
import { readPinsFile } from '../../../src/core/sources/pins';
import { workspaceRootFrom } from '../../../src/cli/workspace-root';
import { counterFor } from '../../../src/core/tokens';
import { num } from '../../../src/core/report/trace';

/** The pure decisions behind the hook's sizes, the root search, the search ranking, pins.json. */

/** A file system as a map of path → kind. */
const fsOf = (entries: Record<string, EntryKind>) => (p: string) => entries[p];

describe('findWorkspaceRoot', () => {
  const tree = {
    '/home/ana': 'dir', '/home/ana/.git': 'dir',
    '/home/ana/work': 'dir', '/home/ana/work/shop': 'dir', '/home/ana/work/shop/.git': 'dir', '/home/ana/work/shop/AGENTS.md': 'file',
    '/home/ana/work/shop/docs': 'dir', '/home/ana/work/shop/docs/AGENTS.md': 'file', '/home/ana/work/shop/docs/adr': 'dir',
    '/home/ana/work/shop/vendor/lib': 'dir', '/home/ana/work/shop/vendor/lib/.git': 'file',
    '/home/ana/notes': 'dir', '/home/ana/notes/AGENTS.md': 'file', '/home/ana/notes/deep': 'dir',
    '/home/ana/linked': 'dir', '/home/ana/linked/.context': 'link', '/home/ana/linked/AGENTS.md': 'link',
    '/srv/app': 'dir', '/srv/app/.context': 'dir', '/srv/app/sub': 'dir', '/srv/.git': 'dir',
  } as Record<string, EntryKind>;
  const find = (start: string) => findWorkspaceRoot(start, { lstat: fsOf(tree), home: '/home/ana' });

  it('from a subfolder: the repository top, not the nearer docs/AGENTS.md', () => {
    assert.deepEqual(find('/home/ana/work/shop/docs/adr'), { root: '/home/ana/work/shop', by: '.git' });
    assert.deepEqual(find('/home/ana/work/shop/docs'), { root: '/home/ana/work/shop', by: '.git' });
  });
  it('the topmost .git wins over a nested one (a vendored repository, a worktree .git file)', () => {
    assert.deepEqual(find('/home/ana/work/shop/vendor/lib'), { root: '/home/ana/work/shop', by: '.git' });
  });
  it('with no .git or .context: the topmost AGENTS.md', () => {
    assert.deepEqual(find('/home/ana/notes/deep'), { root: '/home/ana/notes', by: 'AGENTS.md' });
  });
  it('never takes the home folder, though it holds .git (a dotfiles repository), nor goes above it', () => {
    assert.deepEqual(find('/home/ana/work'), { root: '/home/ana/work', by: 'start' });
    assert.deepEqual(find('/home/ana'), { root: '/home/ana', by: '.git' }, 'started in home itself, home is looked at');
  });
  it('a marker that is a symbolic link is no marker', () => {
    assert.deepEqual(find('/home/ana/linked'), { root: '/home/ana/linked', by: 'start' });
  });
  it('outside home: up to below the filesystem root, topmost .git/.context wins', () => {
    assert.deepEqual(find('/srv/app/sub'), { root: '/srv', by: '.git' });
  });
  it('a start that does not exist is returned as it is', () => {
    assert.deepEqual(find('/home/ana/work/shop/gone'), { root: '/home/ana/work/shop/gone', by: 'start' });
  });

  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  it('on disk: a .context that links out of the tree is not followed; home bounds the walk', () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-root-')));
    made.push(base);
    const outside = path.join(base, 'outside');
    const home = path.join(base, 'home');
    const proj = path.join(home, 'proj');
    fs.mkdirSync(path.join(outside, '.context'), { recursive: true });
    fs.mkdirSync(path.join(proj, 'docs', 'adr'), { recursive: true });
    fs.mkdirSync(path.join(proj, '.context'));
    fs.mkdirSync(path.join(home, '.git'));
    fs.symlinkSync(outside, path.join(proj, 'docs', 'link'));
    fs.symlinkSync(path.join(outside, '.context'), path.join(proj, 'docs', 'adr', '.context'));
    assert.deepEqual(workspaceRootFrom(path.join(proj, 'docs', 'adr'), home), { root: proj, by: '.context' });
    assert.deepEqual(workspaceRootFrom(path.join(proj, 'docs', 'link'), home), { root: proj, by: '.context' }, 'the walk goes up the path as given, never into the link target');
    assert.deepEqual(workspaceRootFrom(home + '/x', home), { root: home + '/x', by: 'start' });
  });
});

describe('hook sizes per client', () => {
  it('Claude Code and Codex: 10 000 characters, 9 500 sent at most', () => {
    assert.deepEqual(clientLimit('claude-code'), { client: 'claude-code', limitChars: 10_000, maxChars: 9_500, label: 'Claude Code' });
    assert.deepEqual(clientLimit('codex'), { client: 'codex', limitChars: 10_000, maxChars: 9_500, label: 'Codex' });
  });
  it('the client: --client, else the agent argument, else a .codex transcript, else Claude Code', () => {
    assert.equal(detectClient('codex', 'claude-code', undefined), 'codex');
    assert.equal(detectClient(undefined, 'codex', undefined), 'codex');
    assert.equal(detectClient(undefined, 'claude-code', '/home/a/.codex/sessions/2026/x.jsonl'), 'codex');
    assert.equal(detectClient(undefined, 'claude-code', '/home/a/.claude/projects/x.jsonl'), 'claude-code');
    assert.deepEqual(detectClient('vim', 'claude-code', undefined), { error: '--client must be one of claude-code, codex, got "vim"' });
  });
});

describe('search ranking', () => {
  const isLog = (p: string) => p.startsWith('logs/');
  const lines = (p: string, from: number, n: number) => Array.from({ length: n }, (_, i) => ({ line: from + i, text: `${p} PaymentValidator ${from + i}` }));
  const found: FileMatches[] = [
    { path: 'application.log', total: 300, first: lines('application.log', 1, 5) },
    { path: 'docs/adr/0007-validation.md', total: 2, first: lines('md', 10, 2) },
    { path: 'logs/ci.txt', total: 1, first: lines('ci', 3, 1) },
    { path: 'src/main/java/PaymentValidator.java', total: 7, first: lines('java', 20, 5) },
    { path: 'config/app.yml', total: 1, first: lines('yml', 4, 1) },
  ];

  it('classes by extension and the tool-output globs', () => {
    assert.deepEqual(found.map((f) => fileClass(f.path, isLog)), ['logs', 'docs', 'logs', 'code', 'other']);
    assert.deepEqual(['PaymentValidator', 'payment_method', 'order.total', 'paymentMethod is required', 'corr=2c81', 'a.*b'].map(isIdentifierQuery), [true, true, true, false, false, false]);
  });

  it('an identifier: code, then docs, then other, then logs; at most 5 per file, each file\'s total counted', () => {
    const r = rankSearch(found, 'PaymentValidator', { isLog });
    assert.deepEqual(r.perFile.map((f) => [f.path, f.matches, f.shown]), [
      ['src/main/java/PaymentValidator.java', 7, 5],
      ['docs/adr/0007-validation.md', 2, 2],
      ['config/app.yml', 1, 1],
      ['application.log', 300, 5],
      ['logs/ci.txt', 1, 1],
    ]);
    assert.deepEqual(r.lines, [
      'src/main/java/PaymentValidator.java:20: java PaymentValidator 20',
      'src/main/java/PaymentValidator.java:21: java PaymentValidator 21',
      'src/main/java/PaymentValidator.java:22: java PaymentValidator 22',
      'src/main/java/PaymentValidator.java:23: java PaymentValidator 23',
      'src/main/java/PaymentValidator.java:24: java PaymentValidator 24',
      'src/main/java/PaymentValidator.java: 2 more matching lines (7 in all)',
      'docs/adr/0007-validation.md:10: md PaymentValidator 10',
      'docs/adr/0007-validation.md:11: md PaymentValidator 11',
      'config/app.yml:4: yml PaymentValidator 4',
      'application.log:1: application.log PaymentValidator 1',
      'application.log:2: application.log PaymentValidator 2',
      'application.log:3: application.log PaymentValidator 3',
      'application.log:4: application.log PaymentValidator 4',
      'application.log:5: application.log PaymentValidator 5',
      'application.log: 295 more matching lines (300 in all)',
      'logs/ci.txt:3: ci PaymentValidator 3',
    ]);
    assert.equal(searchHead(r, 'PaymentValidator', 40), '311 matching lines in 5 files for "PaymentValidator" (14 shown, at most 5 per file; code and documents first, logs last)');
  });

  it('free text keeps the scan order, still at most 5 per file; the total cap leaves later files counted', () => {
    const r = rankSearch(found, 'paymentMethod is required', { isLog, maxShown: 8 });
    assert.deepEqual(r.perFile.map((f) => [f.path, f.shown]), [['application.log', 5], ['docs/adr/0007-validation.md', 2], ['logs/ci.txt', 1], ['src/main/java/PaymentValidator.java', 0], ['config/app.yml', 0]]);
    assert.ok(r.lines.includes('src/main/java/PaymentValidator.java: 7 more matching lines (7 in all)'));
    assert.equal(searchHead(r, 'paymentMethod is required', 40), '311 matching lines in 5 files for "paymentMethod is required" (8 shown, at most 5 per file)');
    assert.equal(searchHead(rankSearch([], 'x', { isLog }), 'x', 40), 'no match for "x" in 40 files');
  });
});

describe('a read-only answer over its cap is cut, not stored', () => {
  it('keeps whole lines and says what was left out', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i + 1} of the answer`).join('\n');
    const r = cutAnswer(text, 300, counterFor('o200k_base'), 'search_workspace');
    assert.equal(r.cut, true);
    assert.equal(r.totalLines, 200);
    assert.ok(r.keptLines > 0 && r.keptLines < 200);
    assert.ok(counterFor('o200k_base').count(r.text) <= 300);
    assert.equal(r.text.split('\n').at(-1), `[cut: ${r.keptLines} of 200 lines kept (${num(r.originalTokens)} tokens in all, cap 300); nothing was stored. Narrow the call: a narrower pattern or a "glob"]`);
    assert.deepEqual(cutAnswer('short', 300, counterFor('o200k_base'), 'read_document'), { text: 'short', cut: false, keptLines: 1, totalLines: 1, originalTokens: 1 });
  });
});

describe('pins.json entries one by one', () => {
  it('a malformed entry among good ones is skipped and named by index and reason; the good ones keep their order', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-pins-'));
    fs.mkdirSync(path.join(root, '.context'));
    fs.writeFileSync(path.join(root, '.context', 'pins.json'), JSON.stringify([
      { id: 'a', source: 'AGENTS.md', text: 'one', startLine: 1, endLine: 1 },
      { id: 'b', source: 'docs/x.md', text: 7 },
      null,
      { id: 'c', source: 'docs/y.md', text: 'three', startLine: 3 },
    ]));
    const r = readPinsFile(root);
    fs.rmSync(root, { recursive: true, force: true });
    assert.deepEqual(r.pins.map((p) => p.id), ['a', 'c']);
    assert.deepEqual(r.warnings, [
      { source: '.context/pins.json', message: 'pin 2 skipped: "text" must be a string ("" for a whole-file pin, read from the file)' },
      { source: '.context/pins.json', message: 'pin 3 skipped: expected an object {"source", "text"}, got null' },
    ]);
    assert.deepEqual(skippedPinEntries([...r.warnings, { source: '.context/pins.json', message: 'skipped: a FIFO' }]), [
      'pin 2 skipped: "text" must be a string ("" for a whole-file pin, read from the file)',
      'pin 3 skipped: expected an object {"source", "text"}, got null',
    ]);
  });
  it('an error other than bad input is not swallowed', () => {
    assert.throws(() => validEntries([1], () => { throw new TypeError('bug'); }), /bug/);
  });
});
