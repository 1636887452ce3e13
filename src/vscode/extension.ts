import * as vscode from 'vscode';
import { loadedEncodings } from '../core/tokens';

/** The only composition root of the host layer. Activation stays cheap: no encoding is loaded here. */
export function activate(context: vscode.ExtensionContext) {
  const output = vscode.window.createOutputChannel('Context Control');
  context.subscriptions.push(output);
  return { loadedEncodings };
}

export function deactivate() {
  // Everything is disposed through context.subscriptions.
}
