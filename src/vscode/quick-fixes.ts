import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fileFixes, settingsFileKind, type FileFix } from '../core/file-fixes';
import type { QuickFix } from '../core/errors';
import { applyFix, fixApplies } from '../core/quick-fix';

/**
 * Quick fixes (code actions) for `.context/policy.yaml` (and the other policy files), `pins.json`, `overrides.json`
 * and `checks.yaml`: replace an unknown key by the suggested one, clamp a value to its bound, remove an entry that
 * names no workspace path. The edits are computed from the buffer as it is when asked (core/file-fixes.ts), so a
 * fix never lands on text that moved. checks.yaml is not part of an assembly: its errors get diagnostics here.
 */

/** A path inside the workspace exists; a path leading outside is never looked at (it is not a workspace path). */
export function workspacePathExists(root: string, rel: string): boolean {
  const p = rel.replace(/\\/g, '/');
  if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.split('/').includes('..')) return false;
  return fs.existsSync(path.join(root, p));
}

const SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/.context/*.{yaml,yml,json}' },
  { scheme: 'file', pattern: '**/.context/policies/*.{yaml,yml}' },
];

/** The fixes of a document of the workspace, as it is now. */
export function fixesOf(root: string, doc: vscode.TextDocument): FileFix[] {
  const rel = path.relative(root, doc.uri.fsPath).split(path.sep).join('/');
  if (rel.startsWith('..')) return [];
  return fileFixes(rel, doc.getText(), (p) => workspacePathExists(root, p));
}

function editOf(doc: vscode.TextDocument, fix: QuickFix): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of fix.edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.text);
  return edit;
}

function rangeOf(f: FileFix): vscode.Range {
  return new vscode.Range(f.line - 1, f.column - 1, f.line - 1, f.column - 1 + Math.max(1, f.length));
}

export class SettingsQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  constructor(private readonly root: () => string | undefined) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    const root = this.root();
    if (!root) return [];
    return fixesOf(root, doc)
      .filter((f) => rangeOf(f).intersection(new vscode.Range(range.start.line, 0, range.end.line, Number.MAX_SAFE_INTEGER)))
      .map((f) => {
        const action = new vscode.CodeAction(f.fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = editOf(doc, f.fix);
        action.isPreferred = true;
        action.diagnostics = [new vscode.Diagnostic(rangeOf(f), f.message, vscode.DiagnosticSeverity.Error)];
        return action;
      });
  }
}

/**
 * The provider, the checks.yaml diagnostics, and `contextControl.applyQuickFix` (the panel's Fix button): applies
 * the first fix of a workspace file and saves it. Returns the fix's title, or undefined when there was none.
 */
export function registerQuickFixes(context: vscode.ExtensionContext, root: () => string | undefined): void {
  context.subscriptions.push(vscode.languages.registerCodeActionsProvider(SELECTOR, new SettingsQuickFixes(root), { providedCodeActionKinds: SettingsQuickFixes.kinds }));
  const checks = vscode.languages.createDiagnosticCollection('contextControl.checks');
  context.subscriptions.push(checks);
  const lint = (doc: vscode.TextDocument) => {
    const r = root();
    if (!r || doc.uri.scheme !== 'file' || settingsFileKind(path.relative(r, doc.uri.fsPath).split(path.sep).join('/')) !== 'checks') return;
    checks.set(
      doc.uri,
      fixesOf(r, doc).map((f) => {
        const d = new vscode.Diagnostic(rangeOf(f), f.message, vscode.DiagnosticSeverity.Error);
        d.source = 'Context Control';
        d.code = f.fix.kind;
        return d;
      }),
    );
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(lint), vscode.workspace.onDidChangeTextDocument((e) => lint(e.document)), vscode.workspace.onDidCloseTextDocument((d) => checks.delete(d.uri)));
  context.subscriptions.push(
    vscode.commands.registerCommand('contextControl.applyQuickFix', async (file: unknown) => {
      const r = root();
      if (!r || typeof file !== 'string' || !settingsFileKind(file) || !workspacePathExists(r, file)) return undefined;
      const uri = vscode.Uri.file(path.join(r, file));
      const exists = (p: string) => workspacePathExists(r, p);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath);
      if (open?.isDirty) {
        // Unsaved edits: the fix goes into the buffer, then the buffer is saved (the next assembly reads the disk).
        const fix = fixesOf(r, open)[0]?.fix;
        if (!fix || !fixApplies(fix, open.getText()) || !(await vscode.workspace.applyEdit(editOf(open, fix)))) return undefined;
        await open.save();
        return fix.title;
      }
      // Otherwise the disk's text is the one the panel's error came from (an open editor follows the file).
      const text = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
      const fix = fileFixes(file, text, exists)[0]?.fix;
      if (!fix || !fixApplies(fix, text)) return undefined;
      await vscode.workspace.fs.writeFile(uri, Buffer.from(applyFix(fix, text), 'utf8'));
      return fix.title;
    }),
  );
}
