import * as vscode from 'vscode';

/**
 * What `activate()` returns. The extension exports no API to other extensions: its internals (the host state, the
 * assembly service, the chat's trust switch) change what it does and what it sends, so they are handed out only to the
 * extension test host, which alone starts an extension in `ExtensionMode.Test` (VS Code sets it when it runs
 * `extensionTestsPath`; no other extension can set it). In Production and Development it is `undefined`.
 */
export function exportsFor<T>(mode: vscode.ExtensionMode, internals: () => T): T | undefined {
  return mode === vscode.ExtensionMode.Test ? internals() : undefined;
}
