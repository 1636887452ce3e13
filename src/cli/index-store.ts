import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexStore } from '../core/relevance/persist';

/**
 * The CLI's kept relevance index: `.context/cache/relevance-index.bin` in the workspace, beside the other things
 * ctxctl keeps there (`.context/offload/`, `.context/send/`), with a `.gitignore` of `*` so it is never committed.
 * It holds terms of the redacted text only (the index is built after redaction), never a secret.
 *
 * Only a real folder inside the workspace is used: `.context` or `.context/cache` that is a link, or a file in
 * their place, means no kept index (the preview is the same, only slower). The index file is read only when it is
 * a regular file (not a link, a FIFO or a device, opened without blocking) of at most MAX_INDEX_BYTES, and
 * written whole to a temporary file, then renamed over it, so a run that is killed never leaves half an index.
 */

export const INDEX_FILE = '.context/cache/relevance-index.bin';
/** 100 000 short notes take about 25 MB; anything far larger is not ours. */
export const MAX_INDEX_BYTES = 1 << 30;

export function workspaceIndexStore(root: string): IndexStore {
  const file = path.join(root, INDEX_FILE);
  return {
    load: () => {
      if (!realFolders(root, false)) return undefined;
      let fd: number | undefined;
      try {
        fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new Error(`${INDEX_FILE}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile()) throw new Error(`${INDEX_FILE} is not a regular file`);
        if (st.size > MAX_INDEX_BYTES) throw new Error(`${INDEX_FILE} is ${st.size} bytes, over ${MAX_INDEX_BYTES}`);
        const buf = Buffer.alloc(st.size);
        let got = 0;
        while (got < buf.length) {
          const n = fs.readSync(fd, buf, got, buf.length - got, null);
          if (n === 0) break;
          got += n;
        }
        if (got !== buf.length) throw new Error(`${INDEX_FILE} changed while it was read`);
        return buf;
      } finally {
        fs.closeSync(fd);
      }
    },
    save: (bytes) => {
      if (!realFolders(root, true)) throw new Error('.context or .context/cache is not a folder of the workspace');
      const ignore = path.join(root, '.context', 'cache', '.gitignore');
      if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '# ctxctl keeps its caches here: never committed\n*\n');
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(tmp, bytes, { flag: 'wx' });
        fs.renameSync(tmp, file);
      } catch (e) {
        fs.rmSync(tmp, { force: true });
        throw e;
      }
    },
  };
}

/** `.context` and `.context/cache` are real folders (not links), made when `create` and missing. */
function realFolders(root: string, create: boolean): boolean {
  for (const dir of [path.join(root, '.context'), path.join(root, '.context', 'cache')]) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !create) return false;
      fs.mkdirSync(dir);
      continue;
    }
    if (!st.isDirectory()) return false;
  }
  return true;
}
