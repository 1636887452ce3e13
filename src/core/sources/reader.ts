import { hostFs as fs } from '../host';
import * as path from 'node:path';
import type { Policy } from '../policy';
import { readText, scanWorkspace, type ScanResult } from './scan';

/**
 * How the core reads a workspace, as continue's `IDE` interface does for its core: the CLI reads the disk, the editor
 * reads its open buffers first (unsaved text included). Paths are workspace-relative with forward slashes.
 */
export interface WorkspaceReader {
  readonly root: string;
  /** True when `read` gives the disk's text as `readText` does: the scan may then read the files for it. */
  readonly disk?: boolean;
  /** The workspace's candidate files (gitignore, the policy's exclude, secret files and size limits applied). */
  list(policy: Pick<Policy, 'exclude' | 'max_file_bytes'>): ScanResult;
  /** A file's text, BOM dropped and line ends normalised to `\n`. Throws when it cannot be read. */
  read(relPath: string): string;
  /** Size in bytes and modification time, or undefined when there is no such file. */
  stat(relPath: string): { size: number; mtimeMs: number } | undefined;
  /**
   * The version of the text `read` gives when it is not the disk's (an unsaved buffer): what the snapshot keys its
   * caches by instead of the scanned file's size and mtime. Undefined: the disk's version.
   */
  unsaved?(relPath: string): { size: number; mtimeMs: number } | undefined;
}

/** The disk, as the CLI and the workers see it. */
export function diskReader(root: string): WorkspaceReader {
  return {
    root,
    disk: true,
    list: (policy) => scanWorkspace(root, { exclude: policy.exclude, maxFileBytes: policy.max_file_bytes }),
    read: (relPath) => readText(root, relPath),
    stat: (relPath) => {
      try {
        const st = fs.statSync(path.join(root, relPath));
        return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** An unsaved editor buffer: its workspace-relative path, its current text, and when it last changed. */
export interface BufferText {
  path: string;
  text: string;
  mtimeMs: number;
}

/**
 * A reader that answers from the given buffers first and from `base` otherwise. Buffers are plain data, so an editor
 * can hand them to a worker thread; a buffer for a file the base does not list is not added (an untitled buffer is
 * not a workspace file).
 */
export function overlayReader(base: WorkspaceReader, buffers: readonly BufferText[]): WorkspaceReader {
  const byPath = new Map(buffers.map((b) => [b.path, b]));
  const normalise = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  return {
    root: base.root,
    list: (policy) => {
      const listed = base.list(policy);
      const files = listed.files.map((f) => {
        const b = byPath.get(f.path);
        return b ? { ...f, size: Buffer.byteLength(b.text), mtimeMs: b.mtimeMs } : f;
      });
      return { ...listed, files };
    },
    read: (relPath) => {
      const b = byPath.get(relPath);
      return b ? normalise(b.text) : base.read(relPath);
    },
    stat: (relPath) => {
      const st = base.stat(relPath);
      const b = byPath.get(relPath);
      return st && b ? { size: Buffer.byteLength(b.text), mtimeMs: b.mtimeMs } : st;
    },
    unsaved: (relPath) => {
      const b = byPath.get(relPath);
      return b ? { size: Buffer.byteLength(b.text), mtimeMs: b.mtimeMs } : undefined;
    },
  };
}
