import * as fs from 'node:fs';
import { InputError } from '../core/errors';

/**
 * Read a file the CLI was told to read (a config to merge, a checks file) only when it is a regular file of at most
 * `limit` bytes: opened without blocking (a FIFO would wait forever for a writer), checked on the open descriptor
 * (no race between the check and the read), and read no further than the limit. Anything else is an InputError
 * naming the file: exit 2, one line. `undefined` when there is no file.
 */
export function readRegularFile(abs: string, label: string, limit: number): string | undefined {
  return readRegularBytes(abs, label, limit)?.toString('utf8');
}

/** `readRegularFile`'s bytes; with `noFollow`, a symbolic link is refused too (it is not opened). */
export function readRegularBytes(abs: string, label: string, limit: number, options: { noFollow?: boolean } = {}): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (options.noFollow ? fs.constants.O_NOFOLLOW : 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new InputError(`cannot be read (${code ?? (e as Error).message})`, label);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new InputError(`is not a regular file (${kindOf(st)}): not read`, label);
    if (st.size > limit) throw new InputError(`is larger than ${sizeText(limit)} (${sizeText(st.size)}): not read`, label);
    const buf = Buffer.alloc(Math.min(st.size, limit) + 1);
    let got = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > limit) throw new InputError(`is larger than ${sizeText(limit)}: not read`, label);
      if (got === buf.length) break;
    }
    return buf.subarray(0, got);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, label);
  } finally {
    fs.closeSync(fd);
  }
}

export function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a link';
  return 'not a file';
}

export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}
