import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, until } from './api';

// Runs only in the multi-root run (index.ts): the workspace is test/fixtures/multi-root/shop.code-workspace, whose
// folders are "Backend" (api/) and "web" (web/), each with its own rules and notes.
const TASK = 'Why is the refund shown twice?';

async function follow(root: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'docs', 'notes.md')));
  await vscode.window.showTextDocument(doc);
}

suite('a multi-root workspace', () => {
  test('each folder gets its own engine and assembly; the trees group by folder; the status follows the active editor', async () => {
    const a = await api();
    const folders = a.folders.all;
    assert.deepEqual(folders.map((f) => [f.name, path.basename(f.root)]), [['Backend', 'api'], ['web', 'web']]);
    const [backend, web] = folders;
    await a.host.setTask(TASK);

    await follow(backend.root);
    await until('the Backend folder followed', () => a.folders.active?.root === backend.root);
    const first = await a.service.run();
    assert.equal(first.kind, 'ok', first.kind === 'error' ? first.error.message : first.kind);
    await follow(web.root);
    await until('the web folder followed', () => a.folders.active?.root === web.root);
    const second = await a.service.run();
    assert.equal(second.kind, 'ok', second.kind === 'error' ? second.error.message : second.kind);

    // Each folder's assembly is its own: its rules, never the other's.
    const sent = (root: string) => {
      const s = a.host.resultOf(root);
      if (s.kind !== 'ok') assert.fail(`${root}: ${s.kind}`);
      return s.assembly.serialized;
    };
    assert.match(sent(backend.root), /Every refund is idempotent\./);
    assert.doesNotMatch(sent(backend.root), /Never log card numbers\./);
    assert.match(sent(web.root), /Never log card numbers\./);
    assert.doesNotMatch(sent(web.root), /Every refund is idempotent\./);
    // And its own engine in the worker, one per root, in the order they were first assembled.
    const engines = await a.service.worker.call('keepFolders', { roots: folders.map((f) => f.root) });
    assert.deepEqual(engines, { evicted: [], kept: [backend.root, web.root] });

    // The trees group by folder, the followed one marked and expanded.
    await until('the manifest tree grouped', () => a.trees.manifest.nodes.length === 2 && a.trees.manifest.nodes[1].description !== undefined);
    for (const tree of [a.trees.index, a.trees.manifest, a.trees.pinned]) {
      assert.deepEqual(tree.nodes.map((n) => [n.label, n.description, n.expanded]), [['Backend', undefined, false], ['web', 'followed (active editor)', true]]);
    }
    assert.ok(a.trees.manifest.nodes[1].children!.length > 0, 'the web folder has its manifest groups');

    // The status bar names the followed folder and shows its budget; it follows the active editor back.
    const budget = (root: string) => {
      const s = a.host.resultOf(root);
      return s.kind === 'ok' ? s.assembly.manifest.budget.final : -1;
    };
    const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
    await until('the status bar on web', () => a.statusBar.text.endsWith(' · web'));
    assert.match(a.statusBar.text, new RegExp(`^\\$\\(symbol-ruler\\) ${fmt(budget(web.root))} / [\\d\u202f]+ · web$`));
    await follow(backend.root);
    await until('the status bar on Backend', () => a.statusBar.text.endsWith(' · Backend'));
    assert.match(a.statusBar.text, new RegExp(`^\\$\\(symbol-ruler\\) ${fmt(budget(backend.root))} / [\\d\u202f]+ · Backend$`));
    assert.equal(a.host.result, a.host.resultOf(backend.root));
  });
});

suite('a folder removed from the workspace', () => {
  test('its engine in the worker and its last result are let go; the other folder keeps its own', async () => {
    const a = await api();
    const [backend, web] = a.folders.all;
    assert.equal(a.host.resultOf(web.root).kind, 'ok', 'the first suite assembled the web folder');
    // Removing the second folder keeps the workspace multi-root (no extension host restart).
    const removed = new Promise<void>((resolve) => {
      const d = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        d.dispose();
        resolve();
      });
    });
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 1), 'VS Code refused to remove the folder');
    await removed;
    assert.deepEqual(a.folders.all.map((f) => f.name), ['Backend']);
    assert.equal(a.host.resultOf(web.root).kind, 'empty');
    assert.equal(a.host.resultOf(backend.root).kind, 'ok');
    // The extension's own keepFolders went first (its listener was registered first; the worker answers in order):
    // this one finds nothing left to let go, and only the Backend's engine held.
    assert.deepEqual(await a.service.worker.call('keepFolders', { roots: [backend.root] }), { evicted: [], kept: [backend.root] });
  });
});
