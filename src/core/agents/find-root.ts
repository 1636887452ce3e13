import * as path from 'node:path';

/**
 * The workspace root for a client started in some folder of a repository (Codex and Claude Code run the server and
 * the hook in their working folder, which may be `docs/`). Pure: the file system is a stat-like callback.
 *
 * From `start` up, each folder is looked at for `.git`, `.context` and `AGENTS.md`. The topmost folder holding
 * `.git` or `.context` wins (a nested repository or worktree inside a project still serves the project); with
 * neither, the topmost holding AGENTS.md; with none, `start` itself. The walk stops below the user's home folder
 * (home itself is never taken: a dotfiles repository there would swallow every project) and below the filesystem
 * root. A marker that is a symbolic link is not a marker, so a link never leads the root elsewhere.
 */

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

export interface RootFound {
  root: string;
  /** The marker that decided, or 'start' when none was found. */
  by: '.git' | '.context' | 'AGENTS.md' | 'start';
}

export function findWorkspaceRoot(start: string, options: { lstat: (p: string) => EntryKind | undefined; home?: string }): RootFound {
  const from = path.resolve(start);
  const home = options.home ? path.resolve(options.home) : undefined;
  // A folder that is not there is not searched from: the caller reports it as it is.
  if (options.lstat(from) === undefined) return { root: from, by: 'start' };
  let repo: RootFound | undefined;
  let rules: RootFound | undefined;
  for (let dir = from; ; dir = path.dirname(dir)) {
    const top = path.dirname(dir) === dir;
    if (top || (home !== undefined && dir === home && dir !== from)) break;
    for (const marker of ['.git', '.context'] as const) {
      const kind = options.lstat(path.join(dir, marker));
      if (kind === 'dir' || (kind === 'file' && marker === '.git')) {
        repo = { root: dir, by: marker };
        break;
      }
    }
    if (options.lstat(path.join(dir, 'AGENTS.md')) === 'file') rules = { root: dir, by: 'AGENTS.md' };
    if (home !== undefined && dir === home) break;
  }
  return repo ?? rules ?? { root: from, by: 'start' };
}

