import * as vscode from 'vscode';

/**
 * Commands whose code is in a bundle of its own (scripts/build.mjs), loaded on their first use: until then the
 * command ids run a stub that loads the bundle, lets it register the real commands, and runs the one invoked.
 */
export function lazyCommands(context: vscode.ExtensionContext, ids: readonly string[], load: () => (context: vscode.ExtensionContext) => void): void {
  let stubs: vscode.Disposable[] = [];
  const loadOnce = () => {
    if (!stubs.length) return;
    for (const s of stubs) s.dispose();
    stubs = [];
    load()(context);
  };
  stubs = ids.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      loadOnce();
      return vscode.commands.executeCommand(id, ...args);
    }),
  );
  context.subscriptions.push({ dispose: () => stubs.forEach((s) => s.dispose()) });
}
