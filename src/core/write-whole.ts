import { hostFs as fs } from './host';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The unguessable name of a temporary file: `.tmp-<12 hex>` unless a store names its own. */
export function tmpName(dir: string, name: (id: string) => string = (id) => `.tmp-${id}`): string {
  return path.join(dir, name(randomBytes(6).toString('hex')));
}

/**
 * Write a file whole beside its place, then rename it over the old one: a reader at the same moment sees the old file
 * or the new one, never an empty or half-written one. The temporary name is unguessable, so no link can be planted
 * there in advance; it is removed when the write fails. `content` is the text, or a write of the temporary file.
 */
export function writeWhole(file: string, content: string | ((tmp: string) => void), name?: (id: string) => string): void {
  const tmp = tmpName(path.dirname(file), name);
  try {
    if (typeof content === 'string') fs.writeFileSync(tmp, content);
    else content(tmp);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
