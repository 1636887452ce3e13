import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { panelFocus } from '../first-run';
import type { HostController } from './controller';
import type { Register } from './register';

/** Preview, the records of the last assembly, and opening a source from a view. */
export function registerPreviewCommands(register: Register, controller: HostController): void {
  const host = controller.service.host;
  register('contextControl.preview', async () => {
    panelFocus.requestedAt = Date.now();
    await vscode.commands.executeCommand('contextControl.panel.focus');
    await controller.preview();
  });
  register('contextControl.openPanel', () => {
    panelFocus.requestedAt = Date.now();
    return vscode.commands.executeCommand('contextControl.panel.focus');
  });
  register('contextControl.refresh', () => controller.service.run());
  const openOutput = async (name: string) => {
    const file = path.join(host.storageDir, name);
    if (!fs.existsSync(file)) await controller.service.run();
    if (!fs.existsSync(file)) {
      void vscode.window.showWarningMessage(`Context Control: no ${name} yet: the last assembly did not succeed.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  };
  register('contextControl.openManifest', () => openOutput('manifest.json'));
  register('contextControl.openTrace', () => openOutput('trace.txt'));
  register('contextControl.copyRequest', () => controller.copyRequest());
  register('contextControl.exportRequest', () => controller.exportRequest());
  register('contextControl.openItem', (arg?: { source: string; line?: number; column?: number; root?: string }) => arg && controller.openSource(arg.source, arg.line, arg.root, arg.column));
}
