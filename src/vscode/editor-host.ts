import * as vscode from 'vscode';
import type { Host, HostFs } from '../core/host';
import { diskHost } from '../host/disk';
import { secretKey } from './secret-key';

/** What the editor host reaches in VS Code, given by the extension (a test gives its own). */
export interface EditorHostDeps {
  secrets: Pick<vscode.SecretStorage, 'get'>;
  /** The vscode.lm model the user targets, when the provider is vscode.lm (undefined: no model-side counter). */
  model: () => Promise<Pick<vscode.LanguageModelChat, 'countTokens'> | undefined>;
  /** The editor's unsaved text of a file (its absolute path), or undefined when it is not open with changes. */
  unsaved?: (abs: string) => string | undefined;
}

/** The unsaved text of an open, edited document at `abs`. */
export function unsavedText(abs: string): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath === abs);
  return doc?.getText();
}

/**
 * The host of the editor's own thread: the disk, with the unsaved text of open documents read first (a whole-file
 * read and a stat: the policy file and the pins the panel shows as the editor has them; the workers get the same
 * buffers as data with each request), VS Code's file watcher, the keys in SecretStorage, and the target vscode.lm
 * model's own counter. Git and the clock are the disk host's.
 */
export function editorHost(deps: EditorHostDeps): Host {
  const unsaved = deps.unsaved ?? unsavedText;
  const disk = diskHost.fs;
  const readFileSync = ((p: string, encoding?: 'utf8') => {
    const text = unsaved(p);
    if (text === undefined) return encoding ? disk.readFileSync(p, encoding) : disk.readFileSync(p);
    return encoding ? text : Buffer.from(text);
  }) as HostFs['readFileSync'];
  const statSync = ((p: string, options?: { throwIfNoEntry: false }) => {
    const st = options ? disk.statSync(p, options) : disk.statSync(p);
    const text = st?.isFile() ? unsaved(p) : undefined;
    return text === undefined || !st ? st : Object.assign(Object.create(st) as typeof st, { size: Buffer.byteLength(text) });
  }) as HostFs['statSync'];
  return {
    ...diskHost,
    fs: { ...disk, readFileSync, statSync },
    watch: (root, onChange) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), '**/*'));
      const on = (uri: vscode.Uri) => onChange(uri.fsPath);
      const subs = [watcher.onDidChange(on), watcher.onDidCreate(on), watcher.onDidDelete(on), watcher];
      return { dispose: () => subs.forEach((d) => d.dispose()) };
    },
    secret: async (provider) => (await deps.secrets.get(secretKey(provider))) || undefined,
    countTokens: async (text) => {
      const model = await deps.model();
      if (!model) throw new Error('no vscode.lm model to count with');
      return model.countTokens(text);
    },
  };
}
