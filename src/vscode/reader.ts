import * as path from 'node:path';
import * as vscode from 'vscode';
import { diskReader, overlayReader, type BufferText, type WorkspaceReader } from '../core/sources/reader';

/** A document's workspace-relative path (forward slashes), or undefined when it is not a file of the workspace. */
export function workspaceRelative(root: string, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const r = path.relative(root, uri.fsPath);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r.split(path.sep).join('/') : undefined;
}

/** The editor's unsaved buffers of workspace files: plain data, so they cross to the worker with a request. */
export function unsavedBuffers(root: string, now = Date.now()): BufferText[] {
  const out: BufferText[] = [];
  for (const doc of vscode.workspace.textDocuments) {
    const rel = doc.isDirty ? workspaceRelative(root, doc.uri) : undefined;
    if (rel) out.push({ path: rel, text: doc.getText(), mtimeMs: now });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The workspace as the editor sees it: unsaved buffers first, then the disk (the core's WorkspaceReader). */
export function editorReader(root: string): WorkspaceReader {
  return overlayReader(diskReader(root), unsavedBuffers(root));
}
