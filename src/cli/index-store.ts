import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InputError, OverLimit } from '../core/errors';
import type { IndexStore } from '../core/relevance/persist';
import type { DocumentStore } from '../core/sources/kept-documents';
import { readRegularBytes } from './read-bounded';

/**
 * The CLI's kept relevance index: one file per workspace in the user's cache folder (`$CTXCTL_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/context-control`, else `~/.cache/context-control`; `%LOCALAPPDATA%\context-control` on
 * Windows), under `relevance/`, named by the SHA-256 of the workspace's real path. Never in the workspace: a preview
 * writes nothing there. It holds terms of the redacted text only (the index is built after redaction), never a secret.
 * Beside it, under `documents/`, the parsed documents (sources/kept-documents.ts): only those in whose strings the
 * redaction rule set finds no secret, so no secret is written there either.
 *
 * The folder is made private (0700); the file is read only when it is a regular file (not a link, a FIFO or a
 * device, opened without blocking) of at most MAX_INDEX_BYTES, and written whole to a temporary file, then renamed
 * over it, so a run that is killed never leaves half an index.
 */

/** 100 000 short notes take about 25 MB; anything far larger is not ours. */
export const MAX_INDEX_BYTES = 1 << 30;

export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CTXCTL_CACHE_DIR) return path.resolve(env.CTXCTL_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return path.join(path.resolve(env.XDG_CACHE_HOME), 'context-control');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'context-control');
  return path.join(os.homedir(), '.cache', 'context-control');
}

/** Where the kept index of the workspace at `root` lives. */
export function indexFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  let real = path.resolve(root);
  try {
    real = fs.realpathSync(real);
  } catch {
    // a workspace that cannot be resolved is keyed by the path as given
  }
  return path.join(cacheFolder(env), 'relevance', `${crypto.createHash('sha256').update(real).digest('hex').slice(0, 32)}.bin`);
}

export function workspaceIndexStore(root: string, env: NodeJS.ProcessEnv = process.env): IndexStore {
  return cacheFileStore(indexFile(root, env), MAX_INDEX_BYTES);
}

/** Where the kept parsed documents of the workspace at `root` live (sources/kept-documents.ts): beside its index. */
export function documentsFile(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheFolder(env), 'documents', path.basename(indexFile(root, env)).replace(/\.bin$/, '.json'));
}

export function workspaceDocumentStore(root: string, env: NodeJS.ProcessEnv = process.env): DocumentStore {
  return cacheFileStore(documentsFile(root, env), MAX_INDEX_BYTES);
}

/** A file of the cache folder, read and written as the head of this file says. */
export function cacheFileStore(file: string, limit: number): IndexStore & DocumentStore {
  const shown = (e: unknown) => `${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  return {
    load: () => {
      try {
        return readRegularBytes(file, file, limit, { noFollow: true });
      } catch (e) {
        throw new Error(e instanceof InputError ? `${file} ${e.message}` : shown(e));
      }
    },
    save: (bytes) => {
      // What could not be loaded again is not written: it would cost every next run a rebuild, untold.
      if (bytes.length > limit) throw new OverLimit(`${file}: ${bytes.length} bytes, over the ${limit}-byte limit of a kept cache file: not kept`);
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        fs.writeFileSync(tmp, bytes, { flag: 'wx', mode: 0o600 });
        fs.renameSync(tmp, file);
      } catch (e) {
        try {
          fs.rmSync(tmp, { force: true });
        } catch {
          // no temporary file was made (the folder could not be)
        }
        throw new Error(shown(e));
      }
    },
  };
}
