import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { indexFile, workspaceIndexStore } from '../../../src/cli/index-store';
import { RelevanceIndex } from '../../../src/core/relevance/index';
import { FORMAT_VERSION, openIndex, restoreIndex, saveIndex, serializeIndex, type IndexStore } from '../../../src/core/relevance/persist';

const docs = [
  { path: 'docs/adr/0001-retry.md', title: 'Retry payments', headings: ['Decision'], body: 'Payments are retried three times; the gateway timeout is two seconds.' },
  { path: 'docs/runbook.md', title: 'Runbook', tags: ['ops'], summary: 'When the ledger times out', body: 'Restart the settlement export. Größe paymentMethod.' },
  { path: 'notes/lunch.md', title: 'Lunch', body: 'Friday.' },
];
const query = ['payment', 'timeout', 'ledger', 'größe', 'method'];

function memoryStore(initial?: Uint8Array): IndexStore & { bytes?: Uint8Array; saves: number } {
  const s = { bytes: initial, saves: 0, load: () => s.bytes, save: (b: Uint8Array) => ((s.bytes = b), s.saves++) };
  return s;
}

describe('the kept relevance index', () => {
  it('restores to the same matches and scores, and reuses an entry only for the same path, size, mtime and text', () => {
    const index = new RelevanceIndex();
    docs.forEach((d, i) => index.upsert(d, { size: 100 + i, mtimeMs: 1000 + i }));
    const restored = restoreIndex(serializeIndex(index));
    assert.deepEqual([...restored.match(query)].sort(), [...index.match(query)].sort());
    assert.equal(restored.changed, false);
    restored.upsert(docs[0], { size: 100, mtimeMs: 1000 });
    assert.deepEqual([restored.stats, restored.changed], [{ reused: 1, indexed: 0 }, false]);
    // The same text under a new mtime: kept, re-keyed (saved again); a new text under the same stamp: indexed again.
    restored.upsert(docs[1], { size: 101, mtimeMs: 5000 });
    assert.deepEqual([restored.stats, restored.changed], [{ reused: 2, indexed: 0 }, true]);
    restored.upsert({ ...docs[2], body: 'Friday ledger.' }, { size: 102, mtimeMs: 1002 });
    assert.deepEqual(restored.stats, { reused: 2, indexed: 1 });
    assert.deepEqual(restored.match(['ledger']).get('notes/lunch.md')?.words, ['ledger']);
  });

  it('a missing store is an empty index; a damaged, cut, foreign or older one is rebuilt with a warning, never thrown', () => {
    assert.deepEqual(openIndex(memoryStore()).warning, undefined);
    const good = serializeIndex(new RelevanceIndex(docs));
    const damaged = (at: number) => {
      const b = good.slice();
      b[at] ^= 0x40;
      return b;
    };
    const version = good.slice();
    new DataView(version.buffer).setUint32(4, FORMAT_VERSION + 1, true);
    const cases: [string, Uint8Array, RegExp][] = [
      ['a flipped bit in the postings', damaged(good.length - 3), /checksum mismatch/],
      ['a flipped bit in the header', damaged(40), /checksum mismatch/],
      ['cut short', good.subarray(0, good.length - 8), /lengths do not add up/],
      ['empty', new Uint8Array(0), /too short/],
      ['not ours', new TextEncoder().encode('{"index": "minisearch", "version": 2, "padding": "...."}'), /not a relevance index/],
      ['another format version', version, new RegExp(`format ${FORMAT_VERSION + 1}, this build reads ${FORMAT_VERSION}`)],
    ];
    for (const [what, bytes, why] of cases) {
      const opened = openIndex(memoryStore(bytes));
      assert.equal(opened.index.size, 0, what);
      assert.match(opened.warning ?? '', why, what);
      assert.match(opened.warning ?? '', /^the kept relevance index is not usable \(.*\): rebuilt$/, what);
    }
    const unreadable = openIndex({ load: () => { throw new Error('EACCES'); }, save: () => undefined });
    assert.deepEqual([unreadable.index.size, unreadable.warning], [0, 'the kept relevance index cannot be read (EACCES): rebuilt']);
  });

  it('is saved only when it changed, and a store that cannot be written is a note', () => {
    const store = memoryStore();
    const index = new RelevanceIndex(docs);
    assert.equal(saveIndex(index, store), undefined);
    assert.equal(saveIndex(index, store), undefined);
    assert.equal(store.saves, 1);
    index.remove('notes/lunch.md');
    assert.equal(saveIndex(index, { load: () => undefined, save: () => { throw new Error('EROFS: read-only file system'); } }), 'the relevance index could not be kept for the next run (EROFS: read-only file system)');
  });
});

describe('ctxctl preview keeps its relevance index in the cache folder, never in the workspace', () => {
  process.env.CTXCTL_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-kept-cache-'));
  const workspace = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-kept-index-'));
    fs.mkdirSync(path.join(root, 'docs', 'adr'), { recursive: true });
    fs.writeFileSync(path.join(root, 'docs', 'adr', '0001-retry.md'), '# ADR-0001: Retry budget\n\n## Status\n\nAccepted\n\n## Decision\n\nPayment gateway retries are capped at 3.\n');
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(root, 'docs', `note-${i}.md`), `# Note ${i}\n\nThe ${i % 2 ? 'ledger' : 'payment'} ${i % 3 ? 'timeout' : 'export'} came up in meeting ${i}.\n`);
    return root;
  };
  const preview = (root: string) => {
    let out = '';
    let err = '';
    const code = run(['preview', '--workspace', root, '--task', 'Why does the payment gateway time out?', '--no-git', '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
    assert.equal(code, 0, err);
    const parsed = JSON.parse(out) as { request: unknown; trace: string };
    return { request: JSON.stringify(parsed.request), trace: parsed.trace, err };
  };
  const files = (root: string) => (fs.readdirSync(root, { recursive: true }) as string[]).sort();

  it('a warm run sends the very bytes of a cold one; an edited file changes the result as a cold run would', () => {
    const root = workspace();
    const before = files(root);
    const cold = preview(root);
    assert.ok(fs.statSync(indexFile(root)).size > 0);
    assert.equal(path.dirname(indexFile(root)), path.join(process.env.CTXCTL_CACHE_DIR!, 'relevance'));
    assert.deepEqual(files(root), before, 'nothing written in the workspace');
    const warm = preview(root);
    assert.deepEqual([warm.request, warm.trace, warm.err], [cold.request, cold.trace, '']);

    const note = path.join(root, 'docs', 'note-4.md');
    fs.writeFileSync(note, '# Note 4\n\nThe payment gateway timeout: payment gateway retries time out after 2 s.\n');
    fs.utimesSync(note, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const edited = preview(root);
    assert.notEqual(edited.request, cold.request);
    assert.match(edited.trace, /docs\/note-4\.md +SELECTED/);
    fs.rmSync(indexFile(root));
    assert.equal(preview(root).request, edited.request, 'the kept index after the edit gives what a cold run gives');
  });

  it('a corrupt kept index is rebuilt with a note on stderr, and the request is the cold one', () => {
    const root = workspace();
    const cold = preview(root);
    const file = indexFile(root);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 2] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const again = preview(root);
    assert.equal(again.request, cold.request);
    assert.equal(again.err, 'ctxctl: note: the kept relevance index is not usable (checksum mismatch): rebuilt\n');
    assert.equal(preview(root).err, '', 'rebuilt and saved: the next run reads it');
  });

  it('a cache folder that cannot be written is a note, and a FIFO in place of the index is never read', () => {
    const root = workspace();
    const blocked = path.join(os.tmpdir(), `ctx-kept-file-${process.pid}`);
    fs.writeFileSync(blocked, 'a file, not a folder\n');
    const env = { ...process.env, CTXCTL_CACHE_DIR: blocked };
    const store = workspaceIndexStore(root, env);
    assert.equal(store.load(), undefined);
    assert.throws(() => store.save(new Uint8Array(4)), new RegExp(`^Error: ${indexFile(root, env).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (ENOTDIR|EEXIST)$`));
    const other = workspace();
    fs.mkdirSync(path.dirname(indexFile(other)), { recursive: true });
    execFileSync('mkfifo', [indexFile(other)]);
    assert.throws(() => workspaceIndexStore(other).load(), /\.bin is not a regular file \(a named pipe\): not read$/);
    const note = preview(other).err;
    assert.match(note, /^ctxctl: note: the kept relevance index cannot be read \(.*\.bin is not a regular file \(a named pipe\): not read\): rebuilt\n$/);
    assert.ok(fs.statSync(indexFile(other)).isFile(), 'replaced by the rebuilt index');
  });
});
