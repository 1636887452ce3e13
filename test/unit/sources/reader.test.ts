import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { defaultPolicy } from '../../../src/core/policy';
import { diskReader, overlayReader } from '../../../src/core/sources/reader';
import { loadSnapshot } from '../../../src/core/sources/snapshot';

function workspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-'));
  fs.mkdirSync(path.join(root, 'docs'));
  fs.writeFileSync(path.join(root, 'docs', 'retry.md'), '\ufeff# Retry\r\nSaved text.\r\n');
  fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\nSaved rule.\n');
  return root;
}

describe('WorkspaceReader', () => {
  it('the disk reader lists, reads (BOM dropped, CRLF normalised) and stats', () => {
    const root = workspace();
    const r = diskReader(root);
    assert.deepEqual(r.list(defaultPolicy()).files.map((f) => f.path), ['AGENTS.md', 'docs/retry.md']);
    assert.equal(r.read('docs/retry.md'), '# Retry\nSaved text.\n');
    assert.equal(r.stat('docs/retry.md')?.size, 25);
    assert.equal(r.stat('docs/missing.md'), undefined);
    assert.equal(r.stat('docs'), undefined);
    assert.throws(() => r.read('docs/missing.md'), /ENOENT/);
  });

  it('the overlay answers from unsaved buffers first, only for files the workspace has', () => {
    const root = workspace();
    const r = overlayReader(diskReader(root), [
      { path: 'docs/retry.md', text: '# Retry\r\nUnsaved text.\n', mtimeMs: 42 },
      { path: 'Untitled-1', text: 'scratch', mtimeMs: 43 },
    ]);
    assert.equal(r.read('docs/retry.md'), '# Retry\nUnsaved text.\n');
    assert.equal(r.read('AGENTS.md'), '# Rules\nSaved rule.\n');
    assert.deepEqual(r.stat('docs/retry.md'), { size: 23, mtimeMs: 42 });
    assert.equal(r.stat('Untitled-1'), undefined);
    const listed = r.list(defaultPolicy()).files;
    assert.deepEqual(listed.map((f) => [f.path, f.size]), [['AGENTS.md', 20], ['docs/retry.md', 23]]);
  });

  it('loadSnapshot reads documents and rules through the reader it is given', () => {
    const root = workspace();
    const reader = overlayReader(diskReader(root), [
      { path: 'AGENTS.md', text: '# Rules\nUnsaved rule.\n', mtimeMs: 1 },
      { path: 'docs/retry.md', text: '# Retry\nUnsaved text.\n', mtimeMs: 1 },
    ]);
    const s = loadSnapshot({ root, task: 'retry', reader, changes: false });
    assert.deepEqual(s.instructions.map((i) => i.text), ['# Rules\nUnsaved rule.']);
    assert.equal(s.documents.find((d) => d.path === 'docs/retry.md')?.body, '# Retry\nUnsaved text.\n');
    const disk = loadSnapshot({ root, task: 'retry', changes: false });
    assert.deepEqual(disk.instructions.map((i) => i.text), ['# Rules\nSaved rule.']);
  });
});
