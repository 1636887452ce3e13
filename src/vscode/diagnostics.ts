import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { entryProblems, problemsOf, type Problem } from '../core/problems';
import { workspacePathExists } from './fix-folder';
import type { AssemblyService, AssemblyState } from './assembly';

/** Problems' severities as VS Code's (a function: nothing of the vscode API is touched while the bundle loads). */
const severity = (s: Problem['severity']): vscode.DiagnosticSeverity =>
  s === 'error' ? vscode.DiagnosticSeverity.Error : s === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;

/** The problems of the last assembly, by workspace file. */
export function problemsOfState(state: AssemblyState, root: string): Problem[] {
  const isFile = (rel: string) => {
    try {
      return fs.statSync(path.join(root, rel)).isFile();
    } catch {
      return false;
    }
  };
  const warnings = state.kind === 'ok' ? state.assembly.manifest.warnings : state.kind === 'refused' ? (state.snapshot?.warnings ?? []) : [];
  const read = (rel: string) => {
    try {
      return fs.readFileSync(path.join(root, rel), 'utf8');
    } catch {
      return undefined;
    }
  };
  return [...problemsOf(warnings, state.kind === 'error' ? state.error : undefined, isFile), ...entryProblems(read, (rel) => workspacePathExists(root, rel))];
}

/**
 * Policy, front-matter, pins, session and overrides errors and warnings in the Problems view, with their ranges:
 * from the column the parser gave to the end of the line, or the whole line. Refreshed after every assembly.
 */
export function registerDiagnostics(context: vscode.ExtensionContext, service: AssemblyService): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('contextControl');
  context.subscriptions.push(collection);
  const update = (state: AssemblyState) => {
    collection.clear();
    const root = service.workspaceRoot;
    if (!root) return;
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of problemsOfState(state, root)) {
      const line = Math.max(0, p.line - 1);
      const start = Math.max(0, (p.column ?? 1) - 1);
      const length = p.fix?.edits[0]?.length;
      const range = new vscode.Range(line, start, line, length ? start + length : Number.MAX_SAFE_INTEGER);
      const d = new vscode.Diagnostic(range, p.message, severity(p.severity));
      d.source = 'Context Control';
      // What the quick fix does (src/vscode/quick-fixes.ts recomputes its edits from the buffer as it is then).
      if (p.fix) d.code = p.fix.kind;
      byFile.set(p.file, [...(byFile.get(p.file) ?? []), d]);
    }
    for (const [file, list] of byFile) collection.set(vscode.Uri.file(path.join(root, file)), list);
  };
  context.subscriptions.push(service.onDidChange(update));
  context.subscriptions.push(vscode.commands.registerCommand('contextControl.showProblems', () => vscode.commands.executeCommand('workbench.actions.view.problems')));
  return collection;
}
