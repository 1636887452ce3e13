import { hostFs as fs } from '../host';
import * as path from 'node:path';
import { resolveInWorkspace, within } from '../sources/guard';

/**
 * Which repository git may read for a workspace: only the workspace's own, at its top. `.git` is resolved through
 * the workspace guard (sources/guard.ts): a folder in the workspace, or a `.git` file whose `gitdir:` stays in the
 * workspace. A `gitdir:` leading outside is accepted only for what git itself makes: a linked worktree (its git
 * folder names this workspace's `.git` back) or a submodule (its `core.worktree` is this workspace). A `commondir` or
 * `objects/info/alternates` of a git folder in the workspace may not lead outside either. Anything else: git is not
 * run, and the reason is one warning on `.git`.
 */
export type GitLocation = { gitDir: string } | { none: true } | { refused: string };

export function gitLocation(root: string): GitLocation {
  const dotGit = path.join(root, '.git');
  const lst = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  if (!lst) return { none: true };
  const realRoot = fs.realpathSync(root);
  if (lst.isFile() && !lst.isSymbolicLink()) return fromGitFile(root, realRoot, dotGit);
  const d = resolveInWorkspace('.git', { root, expect: 'folder', refuseSecrets: false });
  if (!d.ok) return { refused: d.kind === 'not-folder' ? 'is a link to a file, not a git folder: git history not read' : `${d.why}; git history not read` };
  return insideChecks(realRoot, d.real);
}

function fromGitFile(root: string, realRoot: string, dotGit: string): GitLocation {
  if (fs.statSync(dotGit).size > 4096) return { refused: 'is a .git file of more than 4 KiB: git history not read' };
  const m = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
  if (!m) return { refused: 'is a file without a "gitdir:" line: git history not read' };
  const d = resolveInWorkspace(m[1], { root, expect: 'folder', outsideAsNamed: true, refuseSecrets: false });
  if (!d.ok) return { refused: `names gitdir ${m[1]}, which ${d.why}; git history not read` };
  if (within(realRoot, d.real)) return insideChecks(realRoot, d.real);
  // Outside the workspace: only a linked worktree or a submodule of this very folder.
  const back = readSmall(path.join(d.real, 'gitdir'));
  if (back !== undefined && sameFile(path.resolve(d.real, back.trim()), dotGit)) return { gitDir: d.real };
  const worktree = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(readSmall(path.join(d.real, 'config')) ?? '');
  if (worktree && sameFile(path.resolve(d.real, worktree[1]), root)) return { gitDir: d.real };
  return { refused: `names gitdir ${m[1]}, outside the workspace, and that repository is not a worktree or submodule of this folder: git history not read` };
}

/** A git folder inside the workspace: its shared folder and its borrowed objects must be inside too. */
function insideChecks(realRoot: string, gitDir: string): GitLocation {
  const common = readSmall(path.join(gitDir, 'commondir'));
  if (common !== undefined && !within(realRoot, realOrSelf(path.resolve(gitDir, common.trim())))) return { refused: 'has a commondir outside the workspace: git history not read' };
  const objects = path.join(common !== undefined ? path.resolve(gitDir, common.trim()) : gitDir, 'objects');
  const alternates = readSmall(path.join(objects, 'info', 'alternates'));
  for (const line of (alternates ?? '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    if (!within(realRoot, realOrSelf(path.resolve(objects, line)))) return { refused: 'borrows objects from outside the workspace (objects/info/alternates): git history not read' };
  }
  return { gitDir };
}

function readSmall(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return st.isFile() && st.size <= 64 * 1024 ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function sameFile(a: string, b: string): boolean {
  return realOrSelf(a) === realOrSelf(b);
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
