import type * as vscode from 'vscode';
import type { PinStore } from '../pins';
import type { HostController } from './controller';
import { registerPinCommands } from './pins';
import { registerPreviewCommands } from './preview';
import { registrar } from './register';
import { registerSendCommands } from './send';
import { registerSettingsCommands } from './settings';

/** Every command of the extension, registered under the "Context Control" category (see package.json), by concern. */
export function registerCommands(context: vscode.ExtensionContext, controller: HostController, pins: PinStore): void {
  const register = registrar(context);
  registerPreviewCommands(register, controller);
  registerPinCommands(register, controller, pins);
  registerSendCommands(register, controller);
  registerSettingsCommands(register, context.secrets);
}
