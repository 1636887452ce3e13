import * as vscode from 'vscode';
import { workspaceRelative } from './reader';

/** The editor's part of the task: the active file, its selection (clipped), the other open editors; workspace-relative. */
export function editorSignals(root: string): { activeFile?: string; selection?: string; openFiles: string[] } {
  const rel = (uri: vscode.Uri | undefined) => (uri ? workspaceRelative(root, uri) : undefined);
  const editor = vscode.window.activeTextEditor;
  const activeFile = rel(editor?.document.uri);
  const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).slice(0, 4000) : undefined;
  const openFiles = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      const file = input instanceof vscode.TabInputText ? rel(input.uri) : undefined;
      if (file) openFiles.add(file);
    }
  }
  return { activeFile, selection, openFiles: [...openFiles].sort() };
}
