import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { settingsFileKind } from '../core/file-fixes';
import type { AssemblyService } from './assembly';
import type { HostMessage } from './protocol';
import type { PinStore } from './pins';

/**
 * The first run in any folder. The extension activates on every folder (onStartupFinished) and
 * stays idle there: the first assembly waits for a view to be shown or a command, unless the folder already has
 * context (AGENTS.md, `.context/`, or a task typed earlier). The walkthrough opens once per user, and its steps are
 * checked by what the user did (context keys), not only by the commands the walkthrough itself runs.
 */

export const WALKTHROUGH_SHOWN = 'contextControl.walkthroughShown';

/**
 * When a command last asked for the panel with the focus (Preview, Open Panel). The first time in a window the
 * webview is still loading when the workbench focuses it: the focus reaches a frame without the task box, and what
 * is typed next is lost. Once the panel's script says it is ready, the view is focused again (see `focusWhenReady`).
 */
export const panelFocus = { requestedAt: -Infinity };
const FOCUS_WINDOW_MS = 15_000;

/** On the panel's first `ready` after a command asked for it, focus the view again: the task box gets the focus. */
export function focusWhenReady(view: vscode.WebviewView, now: () => number = Date.now): vscode.Disposable {
  const listener = view.webview.onDidReceiveMessage((m: unknown) => {
    if ((m as { type?: unknown } | undefined)?.type !== 'ready') return;
    listener.dispose();
    if (now() - panelFocus.requestedAt < FOCUS_WINDOW_MS) view.show(false);
  });
  return listener;
}
const MARKERS = ['AGENTS.md', '.context'];

/** The folder has context of its own: an assembly is worth starting without being asked. Two stats, nothing read. */
export function hasWorkspaceContext(root: string | undefined, task: string | undefined): boolean {
  if (!root) return false;
  if (task?.trim()) return true;
  return MARKERS.some((m) => fs.existsSync(path.join(root, m)));
}

/** Whether to open the walkthrough now: once per user, never in the test host, never against `startupEditor: none`. */
export function shouldOpenWalkthrough(mode: vscode.ExtensionMode, shown: boolean, startupEditor: string | undefined): boolean {
  return mode !== vscode.ExtensionMode.Test && !shown && startupEditor !== 'none';
}

/**
 * The context keys the views' welcome content and the walkthrough's completion events read:
 * `contextControl.state` (empty, ok, refused, error), `previewed`, `pinned`, `sent`, `policyEdited`.
 */
export function registerFirstRun(context: vscode.ExtensionContext, service: AssemblyService, pins: PinStore, posts: vscode.Event<HostMessage>): void {
  const set = (key: string, value: unknown) => void vscode.commands.executeCommand('setContext', `contextControl.${key}`, value);
  set('state', service.state.kind);
  context.subscriptions.push(
    service.onDidChange((s) => {
      set('state', s.kind);
      // A preview made by typing in the panel checks the Preview step as the command does.
      if (s.kind === 'ok' || s.kind === 'refused') set('previewed', true);
    }),
    pins.onDidChange(() => pins.list().length > 0 && set('pinned', true)),
    posts((m) => m.type === 'sendDone' && !m.error && set('sent', true)),
    vscode.workspace.onDidSaveTextDocument((d) => {
      const root = service.workspaceRoot;
      if (root && settingsFileKind(path.relative(root, d.uri.fsPath).split(path.sep).join('/')) === 'policy') set('policyEdited', true);
    }),
  );
  if (pins.list().length > 0) set('pinned', true);
  const startupEditor = vscode.workspace.getConfiguration('workbench').get<string>('startupEditor');
  if (shouldOpenWalkthrough(context.extensionMode, context.globalState.get<boolean>(WALKTHROUGH_SHOWN) === true, startupEditor)) {
    void context.globalState.update(WALKTHROUGH_SHOWN, true);
    void vscode.commands.executeCommand('contextControl.openWalkthrough');
  }
}
