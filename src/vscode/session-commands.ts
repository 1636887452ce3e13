import * as vscode from 'vscode';
import { parse as parseYaml } from 'yaml';
import { compactSession, editSummary, previewCompaction } from '../core/session/compaction';
import { sessionWorkspace } from '../core/session/maintenance';
import { appendSummaryRecord, undoRecord } from '../core/session/summary-store';
import * as path from 'node:path';
import { SESSION_FILE } from '../core/sources/snapshot';
import type { AssemblyService } from './assembly';
import { ensureSessionStore } from './send';
import { readSettings } from './settings';

const EDIT_HEADER = '# Context Control: edit this session summary, then run "Context Control: Store Edited Session Summary".\n# It is validated before it is stored: a hypothesis may not become a fact, pinned constraints must stay.\n';

/** Compact now, edit and undo the session summary from the editor, through the same core functions as `ctxctl session`. */
export function registerSessionCommands(context: vscode.ExtensionContext, service: AssemblyService, pins: () => Parameters<typeof sessionWorkspace>[3]) {
  /** Summaries live beside the editor's session store, which starts as a copy of the workspace's session. */
  const workspace = () => {
    const root = service.workspaceRoot;
    if (!root) throw new Error('open a folder first');
    ensureSessionStore(service.sessionStore, path.join(root, SESSION_FILE));
    return sessionWorkspace(root, service.policy(readSettings()), service.sessionStore, pins());
  };
  const run = (fn: () => Promise<unknown> | unknown) => async () => {
    try {
      await fn();
    } catch (e) {
      void vscode.window.showErrorMessage(`Context Control: ${(e as Error).message}`);
    }
  };
  const done = async (message: string) => {
    void vscode.window.showInformationMessage(`Context Control: ${message}`);
    await service.run();
  };
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'contextControl.compactSession',
      run(async () => {
        const ws = workspace();
        if (ws.input.events.length === 0) return void vscode.window.showInformationMessage('Context Control: the session has no stored events.');
        const { record } = compactSession(ws.input, new Date());
        appendSummaryRecord(ws.storeFile, record);
        await done(`stored summary ${record.id} of ${record.covers.from}…${record.covers.to} (${record.producer}).`);
      }),
    ),
    vscode.commands.registerCommand(
      'contextControl.editSummary',
      run(async () => {
        const preview = previewCompaction(workspace().input);
        if (!preview) return void vscode.window.showInformationMessage('Context Control: nothing is folded yet, so there is no summary to edit.');
        const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: EDIT_HEADER + preview.text + '\n' });
        await vscode.window.showTextDocument(doc);
      }),
    ),
    vscode.commands.registerCommand(
      'contextControl.storeSummaryEdit',
      run(async () => {
        const editor = vscode.window.activeTextEditor;
        if (!editor || !editor.document.getText().startsWith('# Context Control: edit this session summary')) {
          return void vscode.window.showWarningMessage('Context Control: open the summary with "Edit Session Summary" first, then run this from that editor.');
        }
        const ws = workspace();
        const record = editSummary(ws.input, parseYaml(editor.document.getText()), new Date(), ws.storeLabel);
        appendSummaryRecord(ws.storeFile, record);
        await done(`stored your edit as ${record.id}.`);
      }),
    ),
    vscode.commands.registerCommand(
      'contextControl.undoSummary',
      run(async () => {
        const ws = workspace();
        const record = undoRecord(ws.input.records, new Date(), ws.storeLabel);
        appendSummaryRecord(ws.storeFile, record);
        await done(`undid summary ${record.target}.`);
      }),
    ),
  );
}
