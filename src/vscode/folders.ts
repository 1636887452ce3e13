import * as vscode from 'vscode';
import { Disposable } from './disposable';
import { followedFolder, type FolderRef } from './folder-choice';

/**
 * The workspace's folders and the one followed: each folder has its own engine in the worker (keyed by its root);
 * the panel, the status bar and the next assembly follow the folder of the active editor. A single-folder workspace
 * always follows its folder.
 */
export class FolderTracker extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<FolderRef | undefined>());
  /** Fires when the followed folder changes (another folder's file became active, a folder was added or removed). */
  readonly onDidChange = this.emitter.event;
  private followed: FolderRef | undefined;

  constructor() {
    super();
    this.followed = this.choose();
    const update = () => {
      const next = this.choose();
      if (next?.root === this.followed?.root && next?.name === this.followed?.name) return;
      this.followed = next;
      this.emitter.fire(next);
    };
    this._register(vscode.window.onDidChangeActiveTextEditor(update));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(update));
  }

  /** Every folder of the workspace, in VS Code's order. */
  get all(): FolderRef[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ root: f.uri.fsPath, name: f.name }));
  }

  /** The followed folder, or undefined when no folder is open. */
  get active(): FolderRef | undefined {
    return this.followed;
  }

  private choose(): FolderRef | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return followedFolder(this.all, doc?.uri.scheme === 'file' ? doc.uri.fsPath : undefined, this.followed?.root);
  }
}
