import * as vscode from 'vscode';
import { humanProviderError, type ProviderAction } from '../core/providers/errors';

const RUN: Record<ProviderAction, () => Thenable<unknown>> = {
  'Set API Key': () => vscode.commands.executeCommand('contextControl.setApiKey'),
  'Select model': () => vscode.commands.executeCommand('contextControl.pickProviderModel'),
  'Check network / base URL': () => vscode.commands.executeCommand('workbench.action.openSettings', 'contextControl.baseUrl'),
};

/** Run the fix a provider error offers (the Answer tab's button, the toast's). */
export function runProviderFix(action: ProviderAction): Thenable<unknown> {
  return RUN[action]();
}

/** The sentence and the fix of a provider failure, without a toast (the panel shows them in place). */
export function providerErrorOf(error: unknown): { text: string; action?: ProviderAction } {
  return humanProviderError(error instanceof Error ? error.message : String(error));
}

/** A provider failure as one short sentence with the button that fixes it (errors.ts classifies). Returns the sentence. */
export function showProviderError(error: unknown): string {
  const { text, action } = humanProviderError(error instanceof Error ? error.message : String(error));
  const shown = action ? vscode.window.showErrorMessage(`Context Control: ${text}`, action) : vscode.window.showErrorMessage(`Context Control: ${text}`);
  void shown.then((choice) => choice && RUN[choice as ProviderAction]?.());
  return text;
}
