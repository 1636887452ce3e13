import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../../../src/cli/main';
import { cacheFileStore, documentsFile } from '../../../src/cli/index-store';
import { parseDocument } from '../../../src/core/sources/documents';
import { documentHoldsSecret, KEPT_FORMAT, KeptDocuments, openDocuments, saveDocuments, type DocumentStore } from '../../../src/core/sources/kept-documents';
import { OverLimit } from '../../../src/core/errors';

const ADR = '---\nstatus: accepted\ndate: 2024-05-01\ntags: [payments]\n---\n# ADR-0003: Retry budget\n\n## Status\n\nAccepted\n\nSupersedes ADR-0001\n\n## Decision\n\nRetries are capped at 3.\n';
const NOTE = '# Note\n\nThe ledger export came up.\n';

function memoryStore(initial?: Uint8Array): DocumentStore & { bytes?: Uint8Array; saves: number } {
  const s = { bytes: initial, saves: 0, load: () => s.bytes, save: (b: Uint8Array) => ((s.bytes = b), s.saves++) };
  return s;
}

describe('kept documents (sources/kept-documents.ts)', () => {
  it('gives back a parsed document only for the same path, size, mtime and decision folder, as parsed', () => {
    const kept = new KeptDocuments();
    const adr = parseDocument('docs/adr/0003-retry.md', ADR, true);
    kept.put('docs/adr/0003-retry.md', ADR.length, 1000, true, adr, ADR, documentHoldsSecret);
    const restored = KeptDocuments.restore(kept.serialize());
    assert.deepEqual(restored.get('docs/adr/0003-retry.md', ADR.length, 1000, true), JSON.parse(JSON.stringify(adr)));
    assert.equal(restored.get('docs/adr/0003-retry.md', ADR.length, 1001, true), undefined, 'another mtime');
    assert.equal(restored.get('docs/adr/0003-retry.md', ADR.length + 1, 1000, true), undefined, 'another size');
    assert.equal(restored.get('docs/adr/0003-retry.md', ADR.length, 1000, false), undefined, 'not in a decision folder now');
    assert.deepEqual([restored.knows('docs/adr/0003-retry.md', ADR.length, 1000), restored.knows('docs/adr/0003-retry.md', 1, 1000), restored.knows('other.md', ADR.length, 1000)], [true, false, false]);
    const copy = restored.get('docs/adr/0003-retry.md', ADR.length, 1000, true)!;
    copy.tags!.push('changed');
    copy.decision!.supersedes.push('ADR-0009');
    assert.deepEqual(restored.get('docs/adr/0003-retry.md', ADR.length, 1000, true)!.tags, ['payments'], 'each caller gets its own copy');
    assert.deepEqual(restored.get('docs/adr/0003-retry.md', ADR.length, 1000, true)!.decision!.supersedes, adr.decision!.supersedes);
  });

  it('saves a document as it was parsed: what the chain changes in it afterwards is not kept', () => {
    const kept = new KeptDocuments();
    const adr = parseDocument('docs/adr/0003-retry.md', ADR, true);
    const asParsed = JSON.stringify(adr);
    kept.put('docs/adr/0003-retry.md', ADR.length, 1000, true, adr, ADR, documentHoldsSecret);
    adr.title = 'changed';
    adr.tags!.push('changed');
    adr.decision!.supersedes.push('ADR-0009');
    adr.warnings!.push({ source: 'docs/adr/0003-retry.md', message: 'added later' });
    assert.equal(JSON.stringify(kept.get('docs/adr/0003-retry.md', ADR.length, 1000, true)), asParsed, 'in the same run: its copy');
    assert.equal(JSON.stringify(KeptDocuments.restore(kept.serialize()).get('docs/adr/0003-retry.md', ADR.length, 1000, true)), asParsed, 'saved as parsed');
  });

  it('never keeps a document holding a secret, and drops the version it had kept', () => {
    const kept = new KeptDocuments();
    kept.put('notes/a.md', NOTE.length, 1, false, parseDocument('notes/a.md', NOTE, false), NOTE, documentHoldsSecret);
    const secret = '# Deploy\n\nAPI_KEY=sk-live-0123456789abcdef\n';
    kept.put('notes/a.md', secret.length, 2, false, parseDocument('notes/a.md', secret, false), secret, documentHoldsSecret);
    assert.equal(kept.size, 0);
    assert.equal(new TextDecoder().decode(kept.serialize()), KEPT_FORMAT + '\n');
    const inTitle = '---\ntitle: "token = Xk9mQ2vL7pR4tW8z"\n---\nRotate it monthly.\n';
    kept.put('notes/b.md', inTitle.length, 1, false, parseDocument('notes/b.md', inTitle, false), inTitle, documentHoldsSecret);
    assert.equal(kept.size, 0, 'a secret in the title only');
    // A secret in a front matter field the document does not keep is never written: the document is kept without it.
    const dropped = '---\ntitle: Deploy\npassword: "Xk9#mQ2$vL7p"\n---\n# Deploy\n\nRotate it monthly.\n';
    kept.put('notes/c.md', dropped.length, 1, false, parseDocument('notes/c.md', dropped, false), dropped, documentHoldsSecret);
    assert.equal(kept.size, 1);
    assert.ok(!new TextDecoder().decode(kept.serialize()).includes('Xk9#mQ2$vL7p'));
    assert.equal(documentHoldsSecret(parseDocument('notes/a.md', secret, false), secret), true);
  });

  it('keeps a document that only names credential words (the pre-check flags it, the redaction finds nothing)', () => {
    const kept = new KeptDocuments();
    const words = '---\ntags: [auth, keys]\n---\n# Keyboard shortcuts and API tokens\n\nThe password reset flow issues a token; rotate the signing key monthly.\n';
    const doc = parseDocument('docs/auth.md', words, false);
    assert.equal(documentHoldsSecret(doc, words), false);
    kept.put('docs/auth.md', words.length, 1, false, doc, words, documentHoldsSecret);
    assert.deepEqual(KeptDocuments.restore(kept.serialize()).get('docs/auth.md', words.length, 1, false), JSON.parse(JSON.stringify(doc)));
    assert.equal(documentHoldsSecret(parseDocument('notes/n.md', NOTE, false), NOTE), false);
  });

  it('saves only what changed or went stale; what a run did not see is not saved again', () => {
    const first = new KeptDocuments();
    for (const p of ['a.md', 'b.md']) first.put(p, NOTE.length, 1, false, parseDocument(p, NOTE, false), NOTE, documentHoldsSecret);
    const store = memoryStore(first.serialize());
    const unchanged = openDocuments(store).documents;
    for (const p of ['a.md', 'b.md']) assert.ok(unchanged.get(p, NOTE.length, 1, false));
    assert.equal(saveDocuments(unchanged, store), undefined);
    assert.equal(store.saves, 0, 'nothing changed: nothing written');
    const next = openDocuments(store).documents;
    assert.ok(next.get('a.md', NOTE.length, 1, false));
    assert.equal(saveDocuments(next, store), undefined);
    assert.equal(store.saves, 1);
    const again = openDocuments(store).documents;
    assert.deepEqual([again.size, again.get('b.md', NOTE.length, 1, false)], [1, undefined], 'b.md (not seen) was dropped');
    assert.equal(saveDocuments(next, { load: () => undefined, save: () => { throw new Error('EROFS'); } }), undefined, 'saved already: not written again');
    next.put('c.md', NOTE.length, 1, false, parseDocument('c.md', NOTE, false), NOTE, documentHoldsSecret);
    assert.deepEqual(saveDocuments(next, { load: () => undefined, save: () => { throw new Error('EROFS'); } }), { message: 'the parsed documents could not be kept for the next run (EROFS)', overLimit: false });
    assert.deepEqual(saveDocuments(next, { load: () => undefined, save: () => { throw new OverLimit('f: 9 bytes, over the 8-byte limit of a kept cache file: not kept'); } }), { message: 'the parsed documents could not be kept for the next run (f: 9 bytes, over the 8-byte limit of a kept cache file: not kept)', overLimit: true });
  });

  it('reads bytes of another format, or none that parse, as no kept document', () => {
    for (const bytes of [new Uint8Array([0xff, 0xfe]), new TextEncoder().encode('ctxctl-documents 1\n'), new TextEncoder().encode('{"format":"ctxctl-documents 2"}')]) {
      const kept = KeptDocuments.restore(bytes);
      assert.deepEqual([kept.size, kept.changed], [0, true]);
    }
    const good = new KeptDocuments();
    good.put('a.md', NOTE.length, 1, false, parseDocument('a.md', NOTE, false), NOTE, documentHoldsSecret);
    const line = new TextDecoder().decode(good.serialize()).split('\n')[1];
    const odd = new TextEncoder().encode([KEPT_FORMAT, line.replace('"a.md",', '"b.md",'), '["c.md",1,1,"no"]\t{}', 'not a line', line.replace(/\t.*/, '\t{"path":"a.md"'), ''].join('\n'));
    const restored = KeptDocuments.restore(odd);
    assert.equal(restored.size, 2, 'lines whose stamp does not check out are left out');
    assert.deepEqual([restored.knows('b.md', NOTE.length, 1), restored.get('b.md', NOTE.length, 1, false)], [false, undefined], 'a document that is not its path\'s');
    assert.deepEqual([restored.knows('a.md', NOTE.length, 1), restored.size, restored.changed], [false, 0, true], 'a document that does not parse is not known');
    assert.equal(KeptDocuments.restore(good.serialize()).get('a.md', NOTE.length, 1, false)?.title, 'Note');
    const unreadable = openDocuments({ load: () => { throw new Error('EACCES'); }, save: () => undefined });
    assert.deepEqual([unreadable.documents.size, unreadable.documents.changed, unreadable.warning], [0, true, 'the kept parsed documents cannot be read (EACCES): read again']);
    assert.equal(openDocuments(memoryStore(good.serialize())).warning, undefined);
  });
});

describe('a kept cache file (cli/index-store.ts)', () => {
  it('is not written over its size limit, which it could not load again: the reason names the file and both sizes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-cache-limit-'));
    const file = path.join(dir, 'documents');
    try {
      const store = cacheFileStore(file, 8);
      assert.throws(() => store.save(new Uint8Array(9)), { name: 'OverLimit', message: `${file}: 9 bytes, over the 8-byte limit of a kept cache file: not kept` });
      assert.deepEqual(fs.readdirSync(dir), [], 'nothing written, no temporary file left');
      store.save(new Uint8Array(8));
      assert.equal(store.load()?.length, 8);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ctxctl preview keeps parsed documents in the cache folder', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-kept-docs-cache-'));
  const workspace = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-kept-docs-'));
    fs.mkdirSync(path.join(root, 'docs', 'adr'), { recursive: true });
    fs.writeFileSync(path.join(root, 'docs', 'adr', '0001-retry.md'), '# ADR-0001: Retry budget\n\n## Status\n\nSuperseded by ADR-0003\n\n## Decision\n\nPayment gateway retries are capped at 5.\n');
    fs.writeFileSync(path.join(root, 'docs', 'adr', '0003-retry.md'), ADR.replace('Retries are', 'Payment gateway retries are'));
    fs.writeFileSync(path.join(root, 'docs', 'deploy.md'), '# Deploy\n\nThe payment gateway needs API_KEY=sk-live-0123456789abcdef to retry.\n');
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(root, 'docs', `note-${i}.md`), `---\ntitle: Note ${i}\ncomponent: ${i % 2 ? 'ledger' : 'payments'}\n---\n# Note ${i}\n\nThe ${i % 2 ? 'ledger' : 'payment'} ${i % 3 ? 'timeout' : 'export'} came up in meeting ${i}.\n`);
    return root;
  };
  const preview = (root: string) => {
    let out = '';
    let err = '';
    const previous = process.env.CTXCTL_CACHE_DIR;
    process.env.CTXCTL_CACHE_DIR = cache;
    try {
      const code = run(['preview', '--workspace', root, '--task', 'Why does the payment gateway time out?', '--no-git', '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
      assert.equal(code, 0, err);
    } finally {
      process.env.CTXCTL_CACHE_DIR = previous;
    }
    const parsed = JSON.parse(out) as { request: unknown; manifest: { created_at: string }; trace: string };
    parsed.manifest.created_at = '';
    return { request: JSON.stringify(parsed.request), manifest: JSON.stringify(parsed.manifest), trace: parsed.trace.replace(/\d+(\.\d+)? ?ms\b/g, 'T'), err };
  };

  it('a warm run gives the request, manifest and trace of a cold one; the file with a secret is never kept', () => {
    const root = workspace();
    const cold = preview(root);
    const file = documentsFile(root, { ...process.env, CTXCTL_CACHE_DIR: cache });
    const saved = fs.readFileSync(file, 'utf8');
    assert.ok(saved.includes('docs/note-7.md') && saved.includes('docs/adr/0003-retry.md'));
    assert.ok(!saved.includes('deploy.md') && !saved.includes('sk-live'), 'a document the pre-check flags is read every time, never written');
    const warm = preview(root);
    assert.deepEqual(warm, cold);
    assert.equal(fs.readFileSync(file, 'utf8'), saved, 'nothing changed: the same kept documents');

    const note = path.join(root, 'docs', 'note-4.md');
    fs.writeFileSync(note, '# Note 4\n\nThe payment gateway timeout: payment gateway retries time out after 2 s.\n');
    fs.utimesSync(note, new Date(2020, 0, 1), new Date(2020, 0, 1));
    fs.rmSync(path.join(root, 'docs', 'note-5.md'));
    const edited = preview(root);
    assert.notEqual(edited.request, cold.request);
    assert.match(edited.trace, /docs\/note-4\.md +SELECTED/);
    assert.ok(!fs.readFileSync(file, 'utf8').includes('docs/note-5.md'), 'a deleted file is not kept');
    fs.rmSync(file);
    assert.deepEqual(preview(root), edited, 'without kept documents, the same as with them');
  });
  it('a path and a document outside ASCII are kept and found again', () => {
    const kept = new KeptDocuments();
    const text = '# Café 日本 😀\n\nNotes on the ledger.\n';
    const p = 'notes/café-日本-😀.md';
    const doc = parseDocument(p, text, false);
    kept.put(p, 77, 5, false, doc, text, documentHoldsSecret);
    const restored = KeptDocuments.restore(kept.serialize());
    assert.deepEqual(restored.get(p, 77, 5, false), JSON.parse(JSON.stringify(doc)));
  });

});
