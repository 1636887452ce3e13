import type { FolderRef } from '../folder-choice';
import type { Node } from './tree';

/** A folder's nodes made unique among the folders' (ids prefixed with the root) and opened in that folder. */
export function inFolder(nodes: Node[], root: string): Node[] {
  return nodes.map((n) => ({ ...n, id: `${root}::${n.id}`, ...(n.open ? { open: { ...n.open, root } } : {}), ...(n.children ? { children: inFolder(n.children, root) } : {}) }));
}

/**
 * A tree of a multi-root workspace: one group per folder, the followed folder's open and marked; with one folder (or
 * none), that folder's nodes as they are.
 */
export function byFolder(folders: readonly FolderRef[], followed: string | undefined, nodesOf: (root: string) => Node[], view: string): Node[] {
  if (folders.length <= 1) return folders.length ? nodesOf(folders[0].root) : [];
  return folders.map((f) => ({
    id: `${view}:folder:${f.root}`,
    label: f.name,
    description: f.root === followed ? 'followed (active editor)' : undefined,
    tooltip: f.root,
    icon: 'root-folder',
    expanded: f.root === followed,
    children: inFolder(nodesOf(f.root), f.root),
  }));
}
