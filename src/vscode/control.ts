import * as vscode from 'vscode';
import type { SessionStore } from '../core/session/store';
import { activeSummary, readSummaryStore } from '../core/session/summary-store';
import type { AssemblyService, AssemblyState } from './assembly';
import { registerDiagnostics } from './diagnostics';
import { registerLog } from './log';
import { registerOverrides } from './overrides';
import { registerQuickFixes } from './quick-fixes';
import { pinPrompt } from './pin-size';
import type { PinStore } from './pins';
import { registerSettingCommands } from './setting-scope';

/** Whether the session actions apply: a session to compact, a summary to undo (context keys for `enablement`). */
export function sessionKeys(state: AssemblyState, sessionStore: SessionStore): { hasSession: boolean; canUndoSummary: boolean } {
  const snapshot = state.kind === 'ok' || state.kind === 'refused' ? state.snapshot : undefined;
  let canUndoSummary = false;
  try {
    canUndoSummary = activeSummary(readSummaryStore(sessionStore.summariesFile, 'summaries').records) !== undefined;
  } catch {
    canUndoSummary = false;
  }
  return { hasSession: (snapshot?.session.length ?? 0) > 0, canUndoSummary };
}

/** The user's controls: overrides and item actions, Problems, the log channel, session context keys. */
export function registerControl(context: vscode.ExtensionContext, service: AssemblyService, pins: PinStore) {
  registerOverrides(context, service, pins);
  const diagnostics = registerDiagnostics(context, service);
  registerQuickFixes(context, () => service.workspaceRoot);
  const log = registerLog(context, service);
  registerSettingCommands(context, () => service.host.settings);
  const setKeys = (state: AssemblyState) => {
    const keys = sessionKeys(state, service.sessionStore);
    void vscode.commands.executeCommand('setContext', 'contextControl.hasSession', keys.hasSession);
    void vscode.commands.executeCommand('setContext', 'contextControl.canUndoSummary', keys.canUndoSummary);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('contextControl.openWalkthrough', () => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#contextControl.start`, false)),
  );
  // A task that looks like a file name that does not exist is said once, not only in the manifest.
  let warnedTask: string | undefined;
  context.subscriptions.push(
    service.onDidChange((state) => {
      const missing = state.kind === 'ok' ? state.assembly.manifest.warnings.find((w) => w.source === 'task' && w.message.endsWith('does not exist; treated as text')) : undefined;
      if (missing && missing.message !== warnedTask) void vscode.window.showWarningMessage(`Context Control: the task ${missing.message}.`);
      warnedTask = missing?.message;
    }),
  );
  setKeys(service.state);
  context.subscriptions.push(service.onDidChange(setKeys));
  return { pinPrompt, diagnostics, log };
}
