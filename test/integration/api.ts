import * as vscode from 'vscode';
import type { activate } from '../../src/vscode/extension';

/** The internals `activate()` hands to the extension test host (ExtensionMode.Test); other extensions get nothing. */
export type Api = NonNullable<ReturnType<typeof activate>>;
export const EXTENSION_ID = 'context-control.context-control';

export async function api(): Promise<Api> {
  const ext = vscode.extensions.getExtension<Api | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  const exported = ext.isActive ? ext.exports : await ext.activate();
  if (!exported) throw new Error(`extension ${EXTENSION_ID} exported nothing: not started by the extension test host (ExtensionMode.Test)?`);
  return exported;
}

export function root(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder open');
  return folder.uri.fsPath;
}

/** Use the example's ticket as the task, and wait for a fresh assembly. */
export async function assembleTicket(a: Api) {
  await vscode.workspace.getConfiguration('contextControl').update('taskFile', 'ticket.md', vscode.ConfigurationTarget.Workspace);
  return a.service.run();
}

export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
