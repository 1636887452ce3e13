import * as vscode from 'vscode';

/** Register a command in the extension's subscriptions. */
export function registrar(context: vscode.ExtensionContext) {
  return (id: string, fn: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
}
export type Register = ReturnType<typeof registrar>;
