import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { applyRetention, clearOffloadStore, listStore, openOffloadStore, readStoreRecord } from '../../../src/core/offload/store';
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

  it('retention: recorded files older than the age limit go, then the oldest until the total fits; kept names stay', () => {
    const dir = tempDir('retention');
    const names = written(dir, [['a-old', 10, 100], ['b', 3, 600 * 1024], ['c', 2, 600 * 1024], ['d', 1, 300 * 1024], ['e-kept', 9, 50]]);
    aged(dir, 'user-notes.txt', 30, 700 * 1024);
    const result = applyRetention(dir, { maxAgeDays: 7, maxMegabytes: 1 }, NOW, new Set([names[4]]));
    assert.deepEqual(result.removed, [names[0], names[1]]);
    assert.equal(result.freedBytes, 100 + 600 * 1024);
    assert.deepEqual(listStore(dir).map((f) => f.name), [names[2], names[3], names[4]].sort());
    assert.ok(fs.existsSync(path.join(dir, 'user-notes.txt')), 'a file the store did not write is never removed, however old or large');
    assert.deepEqual(readStoreRecord(dir)?.files, [names[2], names[3], names[4]]);
  });

  it('reads a record changed by another writer afresh, and gives each caller its own list of names', () => {
    const dir = path.join(tempDir('record'), 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 0, maxMegabytes: 0 }, () => NOW);
    const a = path.basename(store.put('t', { text: 'first' }).abs);
    const first = readStoreRecord(dir)!;
    assert.deepEqual(first.files, [a]);
    first.files.push('../outside');
    assert.deepEqual(readStoreRecord(dir)?.files, [a], 'a caller changing its list changes no other read');
    const marker = path.join(dir, '.context-control-offload.json');
    const other = JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: string[] };
    fs.writeFileSync(marker, JSON.stringify({ ...other, files: [...other.files, 'b-0123.txt', '../x', '.context-control-offload.json'] }));
    assert.deepEqual(readStoreRecord(dir)?.files, [a, 'b-0123.txt'], 'the record as another writer left it, plain names only');
    fs.writeFileSync(marker, '{ not json');
    assert.equal(readStoreRecord(dir), undefined, 'a broken marker is no record, whatever was read before');
  });

  it('with a scheduler, holds the names of a burst of puts and records them in one write, beside what another writer added', () => {
    const dir = path.join(tempDir('later'), 'offload');
    const jobs: (() => void)[] = [];
    const store = openOffloadStore(dir, { maxAgeDays: 0, maxMegabytes: 0 }, () => NOW, (job) => jobs.push(job));
    const marker = path.join(dir, '.context-control-offload.json');
    const a = store.put('t', { text: 'first' });
    assert.equal(fs.readFileSync(a.abs, 'utf8'), 'first', 'the payload is written at once');
    assert.deepEqual(readStoreRecord(dir)?.files, [], 'its name is held');
    const b = store.put('t', { text: 'second' });
    assert.equal(jobs.length, 1, 'one record write scheduled for the burst');
    const other = JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: string[] };
    fs.writeFileSync(marker, JSON.stringify({ ...other, files: ['c-0123.txt'] }));
    jobs.shift()!();
    assert.deepEqual(readStoreRecord(dir)?.files, ['c-0123.txt', path.basename(a.abs), path.basename(b.abs)]);
    const before = fs.readFileSync(marker, 'utf8');
    store.flush();
    assert.equal(fs.readFileSync(marker, 'utf8'), before, 'nothing held: nothing written');
    const c = store.put('t', { text: 'third' });
    assert.equal(jobs.length, 1, 'the next burst schedules its own write');
    store.flush();
    assert.ok(readStoreRecord(dir)?.files.includes(path.basename(c.abs)), 'flush writes what is held without waiting for the job');
    jobs.shift()!();
    assert.equal(readStoreRecord(dir)?.files.filter((f) => f === path.basename(c.abs)).length, 1, 'the job after a flush adds nothing twice');
    const d = store.put('t', { text: 'fourth' });
    fs.rmSync(marker);
    jobs.shift()!();
    assert.equal(fs.existsSync(marker), false, 'a store unmarked meanwhile is not marked again');
    assert.ok(fs.existsSync(d.abs));
  });

  it('retention 0 keeps everything; a store prunes once, before its first write, and never what it wrote', () => {
    const dir = tempDir('retention');
    const [old] = written(dir, [['old', 30, 10]]);
    assert.deepEqual(applyRetention(dir, { maxAgeDays: 0, maxMegabytes: 0 }, NOW).removed, []);
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
    assert.ok(fs.existsSync(path.join(dir, old)), 'opening a store touches nothing');
    const put = store.put('t', { text: 'payload' });
    assert.deepEqual(listStore(dir).map((f) => f.name), [path.basename(put.abs)]);
  });

  it('clearOffloadStore removes every recorded payload and keeps the folder, its marker, its .gitignore and foreign files', () => {
    const dir = path.join(tempDir('clear'), 'offload');
    const store = openOffloadStore(dir, { maxAgeDays: 7, maxMegabytes: 200 }, () => NOW);
    store.put('a', { text: 'one' });
    store.put('b', { text: 'second' });
    fs.writeFileSync(path.join(dir, 'mine.txt'), 'user file');
    const cleared = clearOffloadStore(dir);
    assert.equal(cleared.removed.length, 2);
    assert.equal(cleared.freedBytes, 3 + 6);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.context-control-offload.json', '.gitignore', 'mine.txt']);
    assert.deepEqual(clearOffloadStore(path.join(dir, 'missing')), { removed: [], freedBytes: 0 });
  });
});

/** Payloads written through a store, then aged: [name, daysAgo, bytes]; returns their stored names. */
function written(dir: string, specs: [string, number, number][]): string[] {
  const store = openOffloadStore(dir, { maxAgeDays: 0, maxMegabytes: 0 }, () => NOW);
  return specs.map(([name, daysAgo, bytes]) => {
    const put = store.put(name, { text: name.padEnd(bytes, 'x') });
    const when = new Date(NOW.getTime() - daysAgo * DAY);
    fs.utimesSync(put.abs, when, when);
    return path.basename(put.abs);
  });
}
