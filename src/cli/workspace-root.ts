import * as fs from 'node:fs';
import * as os from 'node:os';
import { findWorkspaceRoot, type EntryKind, type RootFound } from '../core/agents/find-root';

/** The file system behind findWorkspaceRoot: lstat, so a link is reported as a link and never followed. */
export function lstatKind(p: string): EntryKind | undefined {
  try {
    const st = fs.lstatSync(p);
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

/** The repository top above the client's folder (see find-root.ts), stopping below the user's home. */
export function workspaceRootFrom(start: string, home: string = os.homedir()): RootFound {
  return findWorkspaceRoot(start, { lstat: lstatKind, home });
}
