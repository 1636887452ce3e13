import * as vscode from 'vscode';
import type { AssemblyService, AssemblyState } from './assembly';
import { runLogLines } from '../core/run-log';

/**
 * The "Context Control" log channel: each run with its duration (timed around the worker call), its outcome, each
 * stage's time in the worker, and what each stage decided (the manifest's counts per section, the ladder's steps,
 * the warnings).
 */
export function registerLog(context: vscode.ExtensionContext, service: AssemblyService): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('Context Control', { log: true });
  context.subscriptions.push(log);
  const write = (state: AssemblyState) => {
    const ms = 'at' in state ? Date.now() - state.at.getTime() : undefined;
    const entry = state.kind === 'ok' ? { kind: state.kind, manifest: state.assembly.manifest, timings: state.assembly.timings } : state.kind === 'empty' ? { kind: state.kind, message: state.reason } : { kind: state.kind, message: state.error.message };
    const [head, ...rest] = runLogLines(entry, ms);
    if (state.kind === 'error') log.error(head);
    else if (state.kind === 'refused') log.warn(head);
    else log.info(head);
    for (const line of rest) log.info(line);
  };
  context.subscriptions.push(service.onDidChange(write));
  context.subscriptions.push(vscode.commands.registerCommand('contextControl.showLog', () => log.show(true)));
  return log;
}
