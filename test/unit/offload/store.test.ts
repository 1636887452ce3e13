import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyRetention, clearOffloadStore, listStore, openOffloadStore } from '../../../src/core/offload/store';
import { tempDir } from './results';

const DAY = 24 * 3600 * 1000;
const NOW = new Date('2026-11-12T10:00:00Z');

/** A payload file written `daysAgo` days before NOW, of `bytes` bytes. */
function aged(dir: string, name: string, daysAgo: number, bytes: number): void {
  fs.writeFileSync(path.join(dir, name), 'x'.repeat(bytes));
  const when = new Date(NOW.getTime() - daysAgo * DAY);
  fs.utimesSync(path.join(dir, name), when, when);
}

describe('offload store', () => {
  it('writes a payload whole under a name made of the tool and its content hash, once, in a git-ignored folder', () => {
    const dir = path.join(tempDir('store'), '.context', 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
    const text = '{"items": [1, 2, 3]}\n';
    const first = store.put('search prs/v2', { text }, '.json');
    assert.match(path.basename(first.abs), /^search_prs_v2-[0-9a-f]{12}\.json$/);
    assert.equal(fs.readFileSync(first.abs, 'utf8'), text);
    assert.deepEqual([first.bytes, first.written], [21, true]);
    const again = store.put('search prs/v2', { text }, '.json');
    assert.deepEqual([again.abs, again.written], [first.abs, false]);
    assert.equal(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8'), '# Offloaded tool results (Context Control): never committed.\n*\n');
    const src = path.join(tempDir('src'), 'run.log');
    fs.writeFileSync(src, 'line 1\r\nline 2\r\n');
    const copied = store.put('run_tests', { file: src });
    assert.match(path.basename(copied.abs), /^run_tests-[0-9a-f]{12}\.log$/);
    assert.deepEqual(fs.readFileSync(copied.abs), fs.readFileSync(src), 'copied byte for byte');
  });

  it('retention: files older than the age limit go, then the oldest until the total fits; kept names stay', () => {
    const dir = tempDir('retention');
    aged(dir, 'a-old.txt', 10, 100);
    aged(dir, 'b.txt', 3, 600 * 1024);
    aged(dir, 'c.txt', 2, 600 * 1024);
    aged(dir, 'd.txt', 1, 300 * 1024);
    aged(dir, 'e-kept.txt', 9, 50);
    const result = applyRetention(dir, { maxAgeDays: 7, maxMegabytes: 1 }, NOW, new Set(['e-kept.txt']));
    assert.deepEqual(result.removed, ['a-old.txt', 'b.txt']);
    assert.equal(result.freedBytes, 100 + 600 * 1024);
    assert.deepEqual(listStore(dir).map((f) => f.name), ['c.txt', 'd.txt', 'e-kept.txt']);
  });

  it('retention 0 keeps everything; a store prunes once, before its first write, and never what it wrote', () => {
    const dir = tempDir('retention');
    aged(dir, 'old.txt', 30, 10);
    assert.deepEqual(applyRetention(dir, { maxAgeDays: 0, maxMegabytes: 0 }, NOW).removed, []);
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
    assert.ok(fs.existsSync(path.join(dir, 'old.txt')), 'opening a store touches nothing');
    const written = store.put('t', { text: 'payload' });
    assert.deepEqual(listStore(dir).map((f) => f.name), [path.basename(written.abs)]);
  });

  it('clearOffloadStore removes every payload and keeps the folder and its .gitignore', () => {
    const dir = path.join(tempDir('clear'), 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
    store.put('a', { text: 'one' });
    store.put('b', { text: 'second' });
    fs.writeFileSync(path.join(dir, '.tmp-deadbeef'), 'interrupted');
    const cleared = clearOffloadStore(dir);
    assert.equal(cleared.removed.length, 3);
    assert.equal(cleared.freedBytes, 3 + 6 + 11);
    assert.deepEqual(fs.readdirSync(dir), ['.gitignore']);
    assert.deepEqual(clearOffloadStore(path.join(dir, 'missing')), { removed: [], freedBytes: 0 });
  });
});
