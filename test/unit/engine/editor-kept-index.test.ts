import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { indexFile, workspaceIndexStore } from '../../../src/cli/index-store';
import { resolvePolicy } from '../../../src/core/policy';
import { openIndex } from '../../../src/core/relevance/persist';
import { loadPolicy } from '../../../src/core/sources/snapshot';
import { engineFor, keptIndexOf, saveKeptIndexes } from '../../../src/vscode/worker/load';
import { handlers } from '../../../src/vscode/worker/ops';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-editor-index-'));
const cacheBefore = process.env.CTXCTL_CACHE_DIR;
process.env.CTXCTL_CACHE_DIR = path.join(tmp, 'cache');
after(() => {
  if (cacheBefore === undefined) delete process.env.CTXCTL_CACHE_DIR;
  else process.env.CTXCTL_CACHE_DIR = cacheBefore;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function folder(name: string): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
  fs.writeFileSync(path.join(root, 'docs', 'ledger.md'), '# Ledger\n\nThe ledger retries each payment call three times.\n');
  fs.writeFileSync(path.join(root, 'docs', 'refunds.md'), '# Refunds\n\nRefunds go through the same payment gateway.\n');
  fs.writeFileSync(path.join(root, 'docs', 'onboarding.md'), '# Onboarding\n\nHow to set up a laptop.\n');
  return root;
}

const assembleIn = (root: string, buffers?: { path: string; text: string; mtimeMs: number }[]) =>
  handlers.assemble({ snapshot: { root, task: 'Why are payment retries failing in the ledger?', policy: resolvePolicy(loadPolicy(root), { maxInput: undefined }), changes: false, ...(buffers ? { buffers } : {}) }, options: {} }, () => undefined);

describe('the editor and the CLI keep one relevance index per folder', () => {
  it('the worker saves the index it built where ctxctl preview keeps its own, and only when it changed', () => {
    const root = folder('shop');
    assembleIn(root);
    assert.deepEqual(saveKeptIndexes(), []);
    const file = indexFile(root);
    assert.ok(fs.statSync(file).isFile(), `${file} was saved`);
    const saved = fs.statSync(file).mtimeMs;
    const opened = openIndex(workspaceIndexStore(root));
    assert.equal(opened.warning, undefined);
    assert.deepEqual(['docs/ledger.md', 'docs/onboarding.md', 'docs/refunds.md'].map((p) => opened.index.has(p)), [true, true, true]);
    // Nothing changed: the next save writes nothing.
    assembleIn(root);
    assert.deepEqual(saveKeptIndexes(), []);
    assert.equal(fs.statSync(file).mtimeMs, saved);
  });

  it('a fresh engine starts from the kept index: unchanged files are reused, an unsaved buffer is indexed anew', async () => {
    const root = folder('kept');
    const first = engineFor(root);
    assembleIn(root);
    assert.deepEqual(saveKeptIndexes(), []);
    assert.equal(keptIndexOf(root)!.stats.indexed, 3);
    // The folder leaves the workspace and comes back (as a new session would): a new engine, from the saved index.
    await handlers.keepFolders({ roots: [] }, () => undefined);
    assert.equal(keptIndexOf(root), undefined);
    const second = engineFor(root);
    assert.notEqual(second, first);
    assert.deepEqual(keptIndexOf(root)!.stats, { reused: 0, indexed: 0 });
    assembleIn(root);
    assert.deepEqual(keptIndexOf(root)!.stats, { reused: 3, indexed: 0 });
    // An unsaved buffer of a document already read from the disk: its text is the one indexed and sent (the
    // document cache once gave back the disk's parse, keyed by the disk's size and mtime).
    const res = assembleIn(root, [{ path: 'docs/ledger.md', text: '# Ledger\n\nThe ledger now backs off between payment retries.\n', mtimeMs: 1 }]) as { assembly: { serialized: string } };
    assert.deepEqual(keptIndexOf(root)!.stats, { reused: 5, indexed: 1 });
    assert.match(res.assembly.serialized, /The ledger now backs off between payment retries\./);
    assert.doesNotMatch(res.assembly.serialized, /retries each payment call three times/);
  });

  it('an unusable kept index is rebuilt and said so, never trusted', () => {
    const root = folder('broken');
    const file = indexFile(root);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'not an index');
    assembleIn(root);
    const notes = saveKeptIndexes();
    assert.equal(notes.length, 1);
    assert.match(notes[0], /broken: the kept relevance index is not usable \(.+\): rebuilt$/);
    assert.ok(openIndex(workspaceIndexStore(root)).index.has('docs/ledger.md'), 'the rebuilt index was saved in its place');
  });
});
