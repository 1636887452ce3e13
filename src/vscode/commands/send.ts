import * as vscode from 'vscode';
import { InputError } from '../../core/errors';
import { offloadLocation } from '../../core/offload/location';
import { clearOffloadStore, listStore } from '../../core/offload/store';
import { num } from '../../core/report/trace';
import type { HostController } from './controller';
import type { Register } from './register';

/** Send, and clearing the store of results the sends offloaded. */
export function registerSendCommands(register: Register, controller: HostController): void {
  const host = controller.service.host;
  register('contextControl.send', () => controller.send());
  register('contextControl.clearOffload', async () => {
    if (!host.root) return;
    let dir: string;
    try {
      dir = offloadLocation(host.root, host.policy());
    } catch (e) {
      void vscode.window.showErrorMessage(`Context Control: ${e instanceof InputError ? e.toString() : (e as Error).message}`);
      return;
    }
    const files = listStore(dir);
    const shown = vscode.workspace.asRelativePath(dir, false);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(`Context Control: the offload store (${shown}) is already empty.`);
      return;
    }
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    const ok = await vscode.window.showWarningMessage(
      `Delete ${files.length} offloaded results (${num(bytes)} bytes) from ${shown}? Requests that referenced them can no longer be inspected.`,
      { modal: true },
      'Delete',
    );
    if (ok !== 'Delete') return;
    const cleared = clearOffloadStore(dir);
    void vscode.window.showInformationMessage(`Context Control: removed ${cleared.removed.length} offloaded results (${num(cleared.freedBytes)} bytes).`);
    controller.service.schedule();
  });
}
