import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { maxInput } from '../core/policy';
import { pinSizeVerdict, SLOW_PIN_BYTES } from '../core/sources/pin-budget';
import { pinOutcome } from '../view-model/pin-outcome';
import { shapeFor, type AssemblyService } from './assembly';

export const PIN_ANYWAY = 'Pin Anyway';

/** The question itself: a modal; replaceable through the extension's API (integration tests answer it). */
export const pinPrompt = {
  ask: async (message: string): Promise<boolean> => (await vscode.window.showWarningMessage(message, { modal: true }, PIN_ANYWAY)) === PIN_ANYWAY,
};

/**
 * Before pinning a whole file. Its size gives a first estimate (nothing read); when that estimate comes near the
 * free room of the last request, the request with the pin is assembled for real in the worker, and the question
 * says what it would do: refused (the protected blocks over max_input, the panel's figures), or fits and drops or
 * shortens what it names. Nothing to say (it fits, nothing dropped): no question. Resolves to the id the pin is made
 * with (the trial's, so its figures are the request's), or undefined when the user declined.
 */
export async function confirmPinSize(uri: vscode.Uri, source: string, service: AssemblyService): Promise<string | undefined> {
  const id = crypto.randomUUID();
  let bytes: number;
  try {
    bytes = fs.statSync(uri.fsPath).size;
  } catch {
    return id; // the pin reports the unreadable file itself
  }
  const state = service.state;
  const max = state.kind === 'ok' ? state.assembly.manifest.budget.max_input : maxInput(service.policy());
  const room = state.kind === 'ok' ? state.assembly.manifest.budget.max_input - state.assembly.manifest.budget.final : state.kind === 'refused' ? 0 : undefined;
  // The byte estimate can be off by half either way: below half the free room the pin cannot push anything out.
  if (pinSizeVerdict(source, bytes, max, room).estimate * 2 <= Math.max(0, room ?? max)) return id;
  const root = service.workspaceRoot;
  if (!root) return id;
  let message: string;
  try {
    const settings = service.host.settings;
    const text = service.host.engine(root).read(source);
    const trial = await withPinProgress(source, bytes, () =>
      service.worker.call('pinTrial', {
        snapshot: service.snapshotOptions(settings),
        options: { model: settings.model, encoding: settings.encoding, shape: shapeFor(settings), sessionStore: service.host.sessionStore.ref() },
        pin: { id, source, text, label: source },
      }),
    );
    const outcome = pinOutcome(source, trial, state.kind === 'ok' ? state.assembly.blocks : undefined);
    if (!outcome.ask) return id;
    message = outcome.message;
  } catch {
    // No trial (bad inputs, a file that cannot be read): nothing true to say beforehand; the pin reports what is wrong.
    return id;
  }
  return (await pinPrompt.ask(message)) ? id : undefined;
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
