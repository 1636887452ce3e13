import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { maxInput } from '../core/policy';
import { pinSizeVerdict, SLOW_PIN_BYTES } from '../core/sources/pin-budget';
import type { AssemblyService } from './assembly';

export const PIN_ANYWAY = 'Pin Anyway';

/** The question itself: a modal; replaceable through the extension's API (integration tests answer it). */
export const pinPrompt = {
  ask: async (message: string): Promise<boolean> => (await vscode.window.showWarningMessage(message, { modal: true }, PIN_ANYWAY)) === PIN_ANYWAY,
};

/**
 * Before pinning a whole file: estimate its tokens from its size (nothing is read) and, when that exceeds the free
 * room of the last request, ask in a modal with both figures. True when the pin should go ahead.
 */
export async function confirmPinSize(uri: vscode.Uri, source: string, service: AssemblyService): Promise<boolean> {
  let bytes: number;
  try {
    bytes = fs.statSync(uri.fsPath).size;
  } catch {
    return true; // the pin reports the unreadable file itself
  }
  const state = service.state;
  const max = state.kind === 'ok' ? state.assembly.manifest.budget.max_input : maxInput(service.policy());
  const room = state.kind === 'ok' ? state.assembly.manifest.budget.max_input - state.assembly.manifest.budget.final : state.kind === 'refused' ? 0 : undefined;
  const verdict = pinSizeVerdict(source, bytes, max, room);
  if (!verdict.ask) return true;
  return pinPrompt.ask(verdict.message);
}

/** Runs `work` with a notification while a large pinned file is read and counted: never seconds of silence. */
export function withPinProgress<T>(source: string, bytes: number, work: () => Thenable<T>): Thenable<T> {
  if (bytes < SLOW_PIN_BYTES) return work();
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Context Control: counting the pinned ${source} (${(bytes / 1024 / 1024).toFixed(1)} MB)…` }, work);
}

export function fileBytes(uri: vscode.Uri): number {
  try {
    return fs.statSync(uri.fsPath).size;
  } catch {
    return 0;
  }
}
