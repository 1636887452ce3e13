import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readText, scanWorkspace } from '../../../src/core/sources/scan';
import { diskReader, overlayReader } from '../../../src/core/sources/reader';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { tempDir } from '../offload/results';

const workspace = () => {
  const root = tempDir('read-whole');
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'a.md'), '\uFEFF# Alpha\r\n\r\nThe ledger retry backs off.\r\n');
  fs.writeFileSync(path.join(root, 'docs', 'b.md'), Buffer.concat([Buffer.from('# Bravo\n'), Buffer.from([0]), Buffer.from('binary\n')]));
  fs.writeFileSync(path.join(root, 'docs', 'c.md'), '# Charlie\n\nSettlement export.\n');
  fs.writeFileSync(path.join(root, 'docs', 'd.md'), '');
  fs.writeFileSync(path.join(root, 'src.ts'), 'export const x = 1;\n');
  return root;
};

describe('the scan reads the documents whole, once (sources/scan.ts readWhole)', () => {
  it('gives their text as readText does and checks them for a NUL from the same bytes; other files only have the check', () => {
    const root = workspace();
    const asked: string[] = [];
    const scan = scanWorkspace(root, { exclude: [], maxFileBytes: 1 << 20, readWhole: (p, size) => (asked.push(`${p}:${size}`), p.endsWith('.md')) });
    assert.deepEqual(asked, ['docs/a.md:43', 'docs/b.md:16', 'docs/c.md:30', 'src.ts:20'], 'never asked for an empty file');
    assert.deepEqual([...scan.texts.keys()], ['docs/a.md', 'docs/c.md']);
    assert.equal(scan.texts.get('docs/a.md'), readText(root, 'docs/a.md'));
    assert.equal(scan.texts.get('docs/a.md'), '# Alpha\n\nThe ledger retry backs off.\n');
    assert.deepEqual(scan.skipped, [{ path: 'docs/b.md', reason: 'binary (a NUL byte in the first 8 KiB)' }]);
    assert.deepEqual(scan.files.map((f) => f.path), ['docs/a.md', 'docs/c.md', 'docs/d.md', 'src.ts']);
    const plain = scanWorkspace(root, { exclude: [], maxFileBytes: 1 << 20 });
    assert.deepEqual([plain.files, plain.skipped, plain.warnings], [scan.files, scan.skipped, scan.warnings]);
    assert.equal(plain.texts.size, 0);
  });

  it('a snapshot is the same whether the scan read the documents (the disk) or the reader did (an overlay without buffers)', () => {
    const root = workspace();
    const opts = { root, task: 'Why does the ledger retry back off?', changes: false as const };
    const disk = loadSnapshot({ ...opts, reader: diskReader(root) });
    const overlay = loadSnapshot({ ...opts, reader: overlayReader(diskReader(root), []) });
    const none = loadSnapshot(opts);
    assert.deepEqual(disk.documents.map((d) => [d.path, d.title, d.body]), [['docs/a.md', 'Alpha', '# Alpha\n\nThe ledger retry backs off.\n'], ['docs/c.md', 'Charlie', '# Charlie\n\nSettlement export.\n'], ['docs/d.md', 'd.md', '']]);
    assert.deepEqual(overlay.documents, disk.documents);
    assert.deepEqual(none.documents, disk.documents);
    assert.deepEqual(overlay.warnings, disk.warnings);
    assert.deepEqual(disk.warnings.filter((w) => w.source === 'docs/b.md'), [{ source: 'docs/b.md', message: 'skipped: binary (a NUL byte in the first 8 KiB); not in this request' }]);
  });
  it('names nested files and files under a linked folder by their workspace path, whatever form the root is given in', () => {
    const root = tempDir('scan-paths');
    fs.mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'b', 'c', 'deep.md'), '# Deep\n');
    fs.writeFileSync(path.join(root, 'a', 'top.md'), '# Top\n');
    fs.symlinkSync(path.join(root, 'a', 'b'), path.join(root, 'linked'));
    const expected = ['a/b/c/deep.md', 'a/top.md'];
    for (const given of [root, root + '/', path.join(root, 'a', '..')]) {
      const scan = scanWorkspace(given, { exclude: [], maxFileBytes: 1 << 20 });
      assert.deepEqual(scan.files.map((f) => f.path), expected, given);
      assert.deepEqual(scan.warnings.map((w) => w.source), ['linked'], given);
    }
    const excluded = scanWorkspace(root, { exclude: ['a/b/**'], maxFileBytes: 1 << 20 });
    // The linked folder's own scan is not excluded: its files come under the link's name.
    assert.deepEqual(excluded.files.map((f) => f.path), ['a/top.md', 'linked/c/deep.md']);
  });
});
