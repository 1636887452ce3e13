import * as vscode from 'vscode';
import { num } from '../../core/report/trace';
import { confirmPinSize, fileBytes, withPinProgress } from '../pin-size';
import type { PinStore } from '../pins';
import type { Node } from '../views/tree';
import type { HostController } from './controller';
import type { Register } from './register';

/** Pin and unpin; after a pin change the budget impact shows at once, with a warning when calls would be refused. */
export function registerPinCommands(register: Register, controller: HostController, pins: PinStore): void {
  const service = controller.service;
  const afterPinChange = async (what: string) => {
    const state = await service.run();
    if (state.kind !== 'refused') return;
    // Not awaited: the warning stays up while the user keeps working.
    void vscode.window
      .showWarningMessage(
        `Context Control: with ${what}, the mandatory blocks need ${num(state.error.mandatoryTokens)} tokens but max_input is ${num(state.error.maxInput)}. Requests will be refused until you unpin something or raise the envelope.`,
        'Show Pinned',
        'Open Panel',
      )
      .then((choice) => {
        if (choice === 'Show Pinned') void vscode.commands.executeCommand('contextControl.pinned.focus');
        if (choice === 'Open Panel') void vscode.commands.executeCommand('contextControl.panel.focus');
      });
  };
  register('contextControl.pinSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) {
      void vscode.window.showInformationMessage('Context Control: select the text to pin first.');
      return;
    }
    const pin = await pins.pinSelection(editor);
    if (pin) await afterPinChange(`the pinned lines ${pin.source}:${pin.startLine}-${pin.endLine}`);
  });
  register('contextControl.pinFile', async (uri?: vscode.Uri) => {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    const id = target && (await confirmPinSize(target, pins.relative(target), service));
    if (!target || !id) return;
    const pin = await pins.pinFile(target, id);
    if (pin) await withPinProgress(pin.source, fileBytes(target), () => afterPinChange(`the pinned file ${pin.source}`));
  });
  register('contextControl.unpin', async (arg?: Node | string) => {
    const id = typeof arg === 'string' ? arg : arg?.id?.replace(/^pin:/, '');
    if (!id) return;
    await pins.unpin(id);
    await service.run();
  });
  register('contextControl.unpinAtCursor', async () => {
    const editor = vscode.window.activeTextEditor;
    const pin = editor && pins.at(editor.document.uri, editor.selection.active.line);
    if (!pin) return;
    await pins.unpin(pin.id);
    await service.run();
  });
}
