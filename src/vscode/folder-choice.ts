import * as path from 'node:path';

/** A workspace folder as the extension tracks it: its absolute root and the name VS Code shows. */
export interface FolderRef {
  root: string;
  name: string;
}

/** Whether `file` lies inside `root` (the root itself included). */
function inside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The folder the panel, the status bar and the assembly follow: the one holding the active editor's file (the
 * innermost when folders nest); else the one followed before, while it is still open; else the first. No vscode.
 */
export function followedFolder(folders: readonly FolderRef[], activeFile: string | undefined, previous: string | undefined): FolderRef | undefined {
  if (activeFile) {
    const holding = folders.filter((f) => inside(f.root, activeFile)).sort((a, b) => b.root.length - a.root.length)[0];
    if (holding) return holding;
  }
  return folders.find((f) => f.root === previous) ?? folders[0];
}

/**
 * The folder a file belongs to, whichever folder is followed: the innermost open folder holding it. A quick fix of
 * a settings file (`.context/policy.yaml` of the second folder) reads and checks paths in that file's folder.
 */
export function folderOfFile(roots: readonly string[], file: string): string | undefined {
  return roots.filter((r) => inside(r, file)).sort((a, b) => b.length - a.length)[0];
}

/** The memento key of a folder's pins: the first folder keeps the single-folder key, so opening a second changes nothing for it. */
export function pinsKey(base: string, folders: readonly FolderRef[], root: string | undefined): string {
  return !root || folders.length === 0 || folders[0].root === root ? base : `${base}@${root}`;
}
