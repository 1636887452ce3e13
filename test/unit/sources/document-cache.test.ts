import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { cachedDocument, clearDocumentCache, DOCUMENT_CACHE_ENTRIES, documentCacheStats } from '../../../src/core/sources/document-cache';
import { parseDocument } from '../../../src/core/sources/documents';
import { KeptDocuments } from '../../../src/core/sources/kept-documents';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { tempDir } from '../offload/results';
import { withHost, type Host } from '../../../src/core/host';
import { diskHost } from '../../../src/host/disk';

/** The disk host, with the files it reads (whole or by descriptor) listed by name. */
function countingHost(): { host: Host; reads: string[] } {
  const reads: string[] = [];
  const fs0 = diskHost.fs;
  const host: Host = { ...diskHost, fs: { ...fs0, readFileSync: ((p: string, ...rest: unknown[]) => (reads.push(path.basename(String(p))), (fs0.readFileSync as (...a: unknown[]) => unknown)(p, ...rest))) as Host['fs']['readFileSync'], openSync: ((p: string, ...rest: unknown[]) => (reads.push(path.basename(String(p))), (fs0.openSync as (...a: unknown[]) => unknown)(p, ...rest))) as Host['fs']['openSync'] } };
  return { host, reads };
}

const doc = (title: string) => `---\ntitle: ${title}\ncomponent: payments\n---\n# Heading\n\nThe payment service retries the ledger call.\n`;

/** An empty document cache and a workspace of two documents, docs/a.md (Alpha) and docs/b.md (Bravo). */
function twoDocuments(): string {
  clearDocumentCache();
  const root = tempDir('doc-cache');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'a.md'), doc('Alpha'));
  fs.writeFileSync(path.join(root, 'docs', 'b.md'), doc('Bravo'));
  return root;
}

describe('parsed documents cached by path, size and mtime (sources/document-cache.ts)', () => {
  it('a second snapshot of unchanged documents parses none of them again, and gets its own copies', () => {
    const root = twoDocuments();
    const first = loadSnapshot({ root, task: 'Why does the ledger call fail?' });
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [0, 2]);
    const firstDocs = structuredClone(first.documents);
    first.documents[0].title = 'changed by a caller';
    first.documents[0].components?.push('other');
    const second = loadSnapshot({ root, task: 'Why does the ledger call fail?' });
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [2, 2]);
    assert.deepEqual(second.documents, firstDocs);
    assert.deepEqual(second.documents.map((d) => d.title).sort(), ['Alpha', 'Bravo']);
  });

  it('a second snapshot in the same process does not read its unchanged documents again; a changed one it reads and parses', () => {
    const root = twoDocuments();
    const opts = { root, task: 'Why does the ledger call fail?', changes: false as const };
    const first = countingHost();
    const before = withHost(first.host, () => loadSnapshot(opts));
    assert.deepEqual(first.reads.filter((r) => r.endsWith('.md')).sort(), ['a.md', 'b.md']);
    const second = countingHost();
    const again = withHost(second.host, () => loadSnapshot(opts));
    assert.deepEqual(second.reads.filter((r) => r.endsWith('.md')), [], 'known versions are neither read nor sniffed');
    assert.deepEqual(again.documents, before.documents);
    fs.writeFileSync(path.join(root, 'docs', 'b.md'), doc('Bravo, edited'));
    const third = countingHost();
    const edited = withHost(third.host, () => loadSnapshot(opts));
    assert.deepEqual(third.reads.filter((r) => r.endsWith('.md')), ['b.md']);
    assert.deepEqual(edited.documents.map((d) => d.title).sort(), ['Alpha', 'Bravo, edited']);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [3, 3]);
  });

  it('a workspace of more documents than 4 096 (the bound it once had) is read once: the second snapshot reads none of them', () => {
    clearDocumentCache();
    const root = tempDir('doc-cache');
    const n = 5000;
    for (let d = 0; d < n / 100; d++) {
      fs.mkdirSync(path.join(root, 'notes', `d${d}`), { recursive: true });
      for (let i = d * 100; i < (d + 1) * 100; i++) fs.writeFileSync(path.join(root, 'notes', `d${d}`, `n${i}.md`), `# Note ${i}\n\nThe ledger call of note ${i}.\n`);
    }
    const opts = { root, task: 'Why does the ledger call fail?', changes: false as const };
    const first = loadSnapshot(opts);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [0, n]);
    const second = countingHost();
    const again = withHost(second.host, () => loadSnapshot(opts));
    assert.deepEqual(second.reads.filter((r) => r.endsWith('.md')), []);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [n, n]);
    assert.deepEqual(again.documents, first.documents);
  });

  it('a snapshot given kept documents (the CLI, one assembly per process) parses what it reads without caching it in the process', () => {
    const root = twoDocuments();
    const kept = new KeptDocuments();
    const first = loadSnapshot({ root, task: 'Why does the ledger call fail?', changes: false, kept });
    assert.deepEqual(first.documents.map((d) => d.title).sort(), ['Alpha', 'Bravo']);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [0, 0]);
    const again = loadSnapshot({ root, task: 'Why does the ledger call fail?', changes: false });
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [0, 2], 'nothing was left in the process cache');
    assert.deepEqual(again.documents, first.documents);
  });

  it('a document whose size or mtime changed is parsed again', () => {
    clearDocumentCache();
    const root = tempDir('doc-cache');
    const file = path.join(root, 'a.md');
    fs.writeFileSync(file, doc('Alpha'));
    const stat = () => ({ path: 'a.md', size: fs.statSync(file).size, mtimeMs: fs.statSync(file).mtimeMs });
    const parse = () => parseDocument('a.md', fs.readFileSync(file, 'utf8'), false);
    assert.equal(cachedDocument(root, stat(), false, parse).title, 'Alpha');
    assert.equal(cachedDocument(root, stat(), false, parse).title, 'Alpha');
    fs.writeFileSync(file, doc('Bravo!'));
    assert.equal(cachedDocument(root, stat(), false, parse).title, 'Bravo!', 'new size');
    const t = new Date('2026-11-12T10:00:00Z');
    fs.writeFileSync(file, doc('Delta!'));
    fs.utimesSync(file, t, t);
    assert.equal(cachedDocument(root, stat(), false, parse).title, 'Delta!', 'same size, new mtime');
    assert.equal(cachedDocument(root, stat(), true, parse).title, 'Delta!');
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [1, 4]);
    assert.equal(cachedDocument(root, { path: 'a.md', size: 1 }, false, () => ({ ...parse(), title: 'no mtime' })).title, 'no mtime', 'a file without mtime is never cached');
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [1, 4]);
  });
  it('past its bound it lets the least recently used quarter go at once, and keeps the most recent', () => {
    clearDocumentCache();
    // One parse, copied under each name: the bound is 131 072 entries.
    const template = parseDocument('d.md', doc('d.md'), false);
    const parse = (p: string) => () => ({ ...template, path: p, title: p });
    const get = (i: number) => cachedDocument('/root', { path: `d${i}.md`, size: 1, mtimeMs: 1 }, false, parse(`d${i}.md`));
    for (let i = 0; i <= DOCUMENT_CACHE_ENTRIES; i++) get(i);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [0, DOCUMENT_CACHE_ENTRIES + 1]);
    // One over the bound: the oldest quarter and one more went, the newest stayed.
    const gone = DOCUMENT_CACHE_ENTRIES / 4 + 1;
    get(DOCUMENT_CACHE_ENTRIES);
    get(gone);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [2, DOCUMENT_CACHE_ENTRIES + 1]);
    get(gone - 1);
    get(0);
    assert.deepEqual([documentCacheStats.hits, documentCacheStats.misses], [2, DOCUMENT_CACHE_ENTRIES + 3]);
    assert.equal(get(gone).title, `d${gone}.md`);
  });
});
