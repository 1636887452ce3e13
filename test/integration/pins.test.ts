import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, root } from './api';
import { formatNumber } from '../../src/view-model/format';

async function openAt(rel: string) {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root(), rel)));
  return vscode.window.showTextDocument(doc);
}

suite('pinning', () => {
  teardown(async () => {
    const a = await api();
    for (const p of a.pins.list()) await a.pins.unpin(p.id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Pin Selection adds a mandatory block, shows in the tree, and the budget moves at once', async () => {
    const a = await api();
    const before = await assembleTicket(a);
    if (before.kind !== 'ok') assert.fail(before.kind);
    const editor = await openAt('docs/runbook.md');
    editor.selection = new vscode.Selection(2, 0, 9, 0);
    await vscode.commands.executeCommand('contextControl.pinSelection');
    const after = a.service.state;
    if (after.kind !== 'ok') assert.fail(after.kind);
    const pins = a.pins.list();
    assert.equal(pins.length, 1);
    assert.deepEqual([pins[0].source, pins[0].startLine, pins[0].endLine], ['docs/runbook.md', 3, 9]);
    const block = after.assembly.blocks.find((b) => b.kind === 'pinned');
    assert.ok(block?.mandatory, 'the pinned block is mandatory');
    assert.equal(block!.text, editor.document.getText(new vscode.Range(2, 0, 8, Number.MAX_SAFE_INTEGER)));
    assert.ok(after.assembly.manifest.budget.mandatory > before.assembly.manifest.budget.mandatory);
    assert.notEqual(a.statusBar.text, `$(symbol-ruler) ${before.assembly.manifest.budget.final}`);
    assert.equal(a.trees.pinned.nodes.length, 1);
    assert.equal(a.trees.pinned.nodes[0].contextValue, 'pin');
    // The CLI sees the same pin: it is mirrored to .context/pins.json.
    const mirrored = JSON.parse(fs.readFileSync(path.join(root(), '.context', 'pins.json'), 'utf8'));
    assert.deepEqual(mirrored.map((p: { source: string; startLine: number; endLine: number }) => [p.source, p.startLine, p.endLine]), [['docs/runbook.md', 3, 9]]);
    assert.match(a.trees.pinned.nodes[0].description!, /^docs\/runbook\.md:3-9 · \d+ tok$/);
  });

  test('a pinned range follows edits above it, and Unpin removes it', async () => {
    const a = await api();
    await assembleTicket(a);
    const editor = await openAt('docs/runbook.md');
    editor.selection = new vscode.Selection(4, 0, 6, 0);
    await vscode.commands.executeCommand('contextControl.pinSelection');
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'one\ntwo\n'));
    const moved = a.pins.list()[0];
    assert.deepEqual([moved.startLine, moved.endLine], [7, 8]);
    await vscode.commands.executeCommand('contextControl.unpin', a.trees.pinned.nodes[0]);
    assert.equal(a.pins.list().length, 0);
    assert.equal(a.trees.pinned.nodes.length, 0);
    await vscode.commands.executeCommand('undo');
  });

  test('a pin that pushes the mandatory blocks past the budget turns the status bar to its error state', async () => {
    const a = await api();
    await assembleTicket(a);
    await openAt('docs/architecture.md');
    await vscode.workspace.getConfiguration('contextControl').update('envelope.window', 9000, vscode.ConfigurationTarget.Workspace);
    const asked: string[] = [];
    const ask = a.control.pinPrompt.ask;
    a.control.pinPrompt.ask = async (message) => (asked.push(message), true);
    try {
      await vscode.commands.executeCommand('contextControl.pinFile');
      const state = a.service.state;
      assert.equal(state.kind, 'refused');
      if (state.kind !== 'refused') return;
      // The question said what happened, with the refusal's own figures (from a trial assembly with the pin).
      assert.match(asked[0] ?? '', new RegExp(`^Pin docs/architecture\\.md \\([\\d\u202f]+ tokens\\)\\? This pin would be refused: protected blocks ${formatNumber(state.error.mandatoryTokens)} tokens, ${formatNumber(state.error.mandatoryTokens - state.error.maxInput)} over max_input ${formatNumber(state.error.maxInput)}\\.`));
      assert.ok(state.error.blocks.some((b) => b.kind === 'pinned' && b.source === 'docs/architecture.md'));
      assert.match(a.statusBar.text, /^\$\(error\) [\d\u202f]+ \/ 6\u202f000 refused$/);
      assert.ok(a.statusBar.backgroundColor instanceof vscode.ThemeColor);
      assert.equal((a.statusBar.backgroundColor as vscode.ThemeColor).id, 'statusBarItem.errorBackground');
      assert.equal(a.trees.manifest.nodes[0].label, 'Refused: the mandatory blocks exceed max_input');
    } finally {
      a.control.pinPrompt.ask = ask;
      await vscode.workspace.getConfiguration('contextControl').update('envelope.window', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
