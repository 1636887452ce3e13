import * as path from 'node:path';
import * as vscode from 'vscode';
import { fileFixes, settingsFileKind, type FileFix } from '../core/file-fixes';
import type { QuickFix } from '../core/errors';
import { applyFix, fixApplies } from '../core/quick-fix';
import { fixesIn, fixesOfFile, workspacePathExists } from './fix-folder';
import { folderOfFile } from './folder-choice';

/**
 * Quick fixes (code actions) for `.context/policy.yaml` (and the other policy files), `pins.json`, `overrides.json`
 * and `checks.yaml`: replace an unknown key by the suggested one, clamp a value to its bound, remove an entry that
 * names no workspace path. The edits are computed from the buffer as it is when asked (core/file-fixes.ts), so a
 * fix never lands on text that moved. checks.yaml is not part of an assembly: its errors get diagnostics here.
 */

const SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/.context/*.{yaml,yml,json}' },
  { scheme: 'file', pattern: '**/.context/policies/*.{yaml,yml}' },
];

/** The fixes of a document of the workspace (inside `root`), as it is now. */
export function fixesOf(root: string, doc: vscode.TextDocument): FileFix[] {
  return fixesIn(root, doc.uri.fsPath, doc.getText());
}

/** A document's fixes in its own workspace folder (multi-root: not the followed one); none outside every folder. */
export function documentFixes(doc: vscode.TextDocument): { root?: string; fixes: FileFix[] } {
  if (doc.uri.scheme !== 'file') return { fixes: [] };
  return fixesOfFile((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), doc.uri.fsPath, doc.getText());
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

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    return documentFixes(doc)
      .fixes.filter((f) => rangeOf(f).intersection(new vscode.Range(range.start.line, 0, range.end.line, Number.MAX_SAFE_INTEGER)))
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
 * The provider and the checks.yaml diagnostics, each in the folder of its document (multi-root), and
 * `contextControl.applyQuickFix` (the panel's Fix button, for the followed folder `root`, the panel's): applies the
 * first fix of a workspace file and saves it. Returns the fix's title, or undefined when there was none.
 */
export function registerQuickFixes(context: vscode.ExtensionContext, root: () => string | undefined): void {
  context.subscriptions.push(vscode.languages.registerCodeActionsProvider(SELECTOR, new SettingsQuickFixes(), { providedCodeActionKinds: SettingsQuickFixes.kinds }));
  const checks = vscode.languages.createDiagnosticCollection('contextControl.checks');
  context.subscriptions.push(checks);
  const lint = (doc: vscode.TextDocument) => {
    // Every document opened or typed in passes here: only the name is looked at before a checks file is parsed.
    const r = doc.uri.scheme === 'file' ? folderOfFile((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), doc.uri.fsPath) : undefined;
    if (!r || settingsFileKind(path.relative(r, doc.uri.fsPath).split(path.sep).join('/')) !== 'checks') return;
    checks.set(
      doc.uri,
      fixesIn(r, doc.uri.fsPath, doc.getText()).map((f) => {
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
