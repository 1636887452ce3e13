import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, root, until } from './api';
import { chatRequest, FakeModel, recordingStream, textOf } from './chat-fakes';

suite('host state', () => {
  teardown(async () => {
    const a = await api();
    for (const p of a.pins.list()) await a.pins.unpin(p.id);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('contextControl').update('envelope.window', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('typing in a pinned range re-assembles before any save, and the request carries the unsaved text', async () => {
    const a = await api();
    // The test host may save edits by itself (files.autoSave): this test is about a buffer that is not saved.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
    await assembleTicket(a);
    const file = path.join(root(), 'docs', 'runbook.md');
    const onDisk = fs.readFileSync(file, 'utf8');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
    editor.selection = new vscode.Selection(2, 0, 5, 0);
    await vscode.commands.executeCommand('contextControl.pinSelection');
    const typed = 'UNSAVED-PIN-EDIT-4711';
    const runs = a.host.result.kind === 'ok' ? a.host.result.at : undefined;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(editor.document.uri, new vscode.Position(3, 0), `${typed} `);
    assert.equal(await vscode.workspace.applyEdit(edit), true);
    assert.ok(editor.document.isDirty, 'the edit is not saved');
    // No run, no save: the change of the buffer alone schedules the re-assembly.
    const state = await until('a re-assembly that carries the typed text', () => {
      const s = a.host.result;
      return s.kind === 'ok' && s.at !== runs && s.assembly.serialized.includes(typed) && s;
    }, 15_000);
    assert.equal(fs.readFileSync(file, 'utf8'), onDisk, 'the file on disk is unchanged');
    const pinned = state.assembly.blocks.find((b) => b.kind === 'pinned');
    assert.ok(pinned?.text.includes(typed), 'the pinned block holds the typed text');
  });

  test('a setting changed takes effect without a reload, through the HostState snapshot', async () => {
    const a = await api();
    const before = await assembleTicket(a);
    if (before.kind !== 'ok') assert.fail(before.kind);
    assert.equal(before.assembly.manifest.budget.max_input, 11000);
    await vscode.workspace.getConfiguration('contextControl').update('envelope.window', 9000, vscode.ConfigurationTarget.Workspace);
    assert.equal(a.host.settings.envelope.window, 9000);
    // No explicit run: the settings change alone re-assembles. 9 000 − output_reserve 2 000 − margin 1 000.
    const state = await until('a re-assembly under the new window', () => {
      const s = a.host.result;
      return s.kind === 'ok' && s.assembly.manifest.budget.max_input === 6000 && s;
    }, 15_000);
    assert.equal(state.settings.envelope.window, 9000);
    assert.equal(a.host.policy().envelope.window, 9000);
  });

  test('the chat participant answers through the send worker: each model call comes back to the host', async () => {
    const a = await api();
    const model = new FakeModel(4000, ['Answered ', 'through the worker.']);
    const rec = recordingStream();
    const result = (await a.chat.handler(chatRequest('Which service times out?', model), { history: [] }, rec.stream, new vscode.CancellationTokenSource().token)) as vscode.ChatResult & { metadata: { sent: boolean; answer?: string } };
    assert.equal(result.errorDetails, undefined, result.errorDetails?.message);
    assert.deepEqual([result.metadata.sent, result.metadata.answer], [true, 'Answered through the worker.']);
    assert.equal(model.requests.length, 1);
    assert.ok(model.counts >= 1, 'the worker asked the host model for its count');
    assert.ok(textOf(model.requests[0].at(-1)!).endsWith('Which service times out?\n</task>'));
    // The worker wrote the record of what it sent.
    const manifest = JSON.parse(await until('the chat manifest', () => fs.existsSync(path.join(a.chat.recordDir, 'manifest.json')) && fs.readFileSync(path.join(a.chat.recordDir, 'manifest.json'), 'utf8')));
    assert.equal(manifest.task.source, 'task');
    // The chain never ran in this process: only dist/extension.js of the extension's bundles is loaded here.
    const dist = path.join(vscode.extensions.getExtension('context-control.context-control')!.extensionPath, 'dist') + path.sep;
    assert.deepEqual(Object.keys(require.cache).filter((k) => k.startsWith(dist) && !k.endsWith('session-host.js')).map((k) => path.relative(dist, k)), ['extension.js']);
  });
});
