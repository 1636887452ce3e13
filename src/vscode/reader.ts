import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BufferText } from '../core/sources/reader';

/** A document's workspace-relative path (forward slashes), or undefined when it is not a file of the workspace. */
export function workspaceRelative(root: string, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const r = path.relative(root, uri.fsPath);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r.split(path.sep).join('/') : undefined;
}

/**
 * The editor's unsaved buffers of workspace files: plain data, so they cross to the worker with a request (this
 * thread's own reads get them from the editor host, editor-host.ts).
 */
export function unsavedBuffers(root: string, now = Date.now()): BufferText[] {
  const out: BufferText[] = [];
  for (const doc of vscode.workspace.textDocuments) {
    const rel = doc.isDirty ? workspaceRelative(root, doc.uri) : undefined;
    if (rel) out.push({ path: rel, text: doc.getText(), mtimeMs: now });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
