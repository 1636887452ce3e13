/** The folder a settings file's quick fixes work in, and those fixes: no `vscode`, so unit tests run it. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileFixes, type FileFix } from '../core/file-fixes';
import { folderOfFile } from './folder-choice';

/** A path inside the workspace exists; a path leading outside is never looked at (it is not a workspace path). */
export function workspacePathExists(root: string, rel: string): boolean {
  const p = rel.replace(/\\/g, '/');
  if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.split('/').includes('..')) return false;
  return fs.existsSync(path.join(root, p));
}

/** The fixes of a file inside `root`, as its text is now (its path relative to root decides which file it is). */
export function fixesIn(root: string, file: string, text: string): FileFix[] {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('..')) return [];
  return fileFixes(rel, text, (p) => workspacePathExists(root, p));
}

/**
 * The fixes of a file of a multi-root workspace in its own folder (the innermost open folder holding it), not the
 * folder the panel follows: the paths an overrides or pins file names are looked up where that file is.
 */
export function fixesOfFile(roots: readonly string[], file: string, text: string): { root?: string; fixes: FileFix[] } {
  const root = folderOfFile(roots, file);
  return root ? { root, fixes: fixesIn(root, file, text) } : { fixes: [] };
}
