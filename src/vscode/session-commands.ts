import * as vscode from 'vscode';
import { parse as parseYaml } from 'yaml';
import { compactSession, editSummary, previewCompaction } from '../core/session/compaction';
import { ContextEngine } from '../core/engine';
import { sessionWorkspace } from '../core/session/maintenance';
import { undoRecord } from '../core/session/summary-store';
import type { AssemblyService } from './assembly';
import { summaryFromModel } from './model-summary';

const EDIT_HEADER = '# Context Control: edit this session summary, then run "Context Control: Store Edited Session Summary".\n# It is validated before it is stored: a hypothesis may not become a fact, pinned constraints must stay.\n';

/** Compact now, edit and undo the session summary from the editor, through the same core functions as `ctxctl session`. */
export function registerSessionCommands(context: vscode.ExtensionContext, service: AssemblyService, pins: () => Parameters<typeof sessionWorkspace>[3]) {
  /**
   * Summaries live beside the session the editor replays: the workspace's own (what `ctxctl session` acts on) in a
   * trusted workspace; in restricted mode the editor's copy, so nothing is written to the workspace.
   */
  const workspace = () => {
    const root = service.workspaceRoot;
    if (!root) throw new Error('open a folder first');
    return sessionWorkspace(new ContextEngine(service.host.engine(root).host, root), service.policy(), service.sessionStore, pins());
  };
  const run =
    <A extends unknown[]>(fn: (...args: A) => Promise<unknown> | unknown) =>
    async (...args: A) => {
      try {
        await fn(...args);
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
      run(async (options?: { with?: 'model' | 'extractive' }) => {
        const ws = workspace();
        const preview = previewCompaction(ws.input);
        if (!preview) return void vscode.window.showInformationMessage('Context Control: every stored group is replayed raw: there is nothing to compact.');
        const settings = service.host.settings;
        let how = options?.with;
        if (!how) {
          const modelChoice = settings.provider === 'dry-run' ? [] : [{ label: `Summarize with ${settings.provider} (${settings.model})`, detail: `Sends ${preview.folded.ids.length} session events to the model, with the summary's JSON schema; validated before it is stored.`, how: 'model' as const }];
          const pick = await vscode.window.showQuickPick([...modelChoice, { label: 'Extractive summary (no model)', detail: 'Copies sentences from the events; nothing is sent.', how: 'extractive' as const }], { title: 'Context Control: compact the older session events' });
          how = pick?.how;
        }
        if (!how) return;
        let fromModel: { summary: unknown; producer: string } | undefined;
        if (how === 'model') {
          if (!vscode.workspace.isTrusted) throw new Error('asking a model needs a trusted workspace');
          if (settings.provider === 'dry-run') throw new Error('the dry-run provider has no model: pick a provider first');
          const summary = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: `Context Control: asking ${settings.model} for the session summary…`, cancellable: true },
            (_p, token) => summaryFromModel(ws.input, preview.folded.ids, settings, service.policy(settings), service.host.engine(), token),
          );
          fromModel = { summary, producer: `model:${settings.model}` };
        }
        const { record } = compactSession(ws.input, new Date(), fromModel);
        ws.store.appendSummary(record);
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
        ws.store.appendSummary(record);
        await done(`stored your edit as ${record.id}.`);
      }),
    ),
    vscode.commands.registerCommand(
      'contextControl.undoSummary',
      run(async () => {
        const ws = workspace();
        const record = undoRecord(ws.input.records, new Date(), ws.storeLabel);
        ws.store.appendSummary(record);
        await done(`undid summary ${record.target}.`);
      }),
    ),
  );
}
