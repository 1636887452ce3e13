import type { Policy } from '../policy';
import { contentHash } from '../tokens';

/**
 * What trimming a workspace file costs is paid once per version of the file: its evidence (one streaming pass) keyed
 * by path, size and mtime, and its trim result keyed by those plus its share, the policy and the encoding. The
 * caches live as long as the process: the assemble worker keeps them warm between calls; the CLI starts empty.
 * A file without an mtime (a tool result returned in this step) is never cached.
 */

export interface FileStamp {
  path: string;
  size: number;
  mtimeMs?: number;
}

/** Entries kept per cache (the least recently used go first). */
export const TRIM_CACHE_ENTRIES = 64;

export class Memo<T> {
  private readonly entries = new Map<string, T>();
  hits = 0;
  constructor(private readonly cap = TRIM_CACHE_ENTRIES) {}

  /** The cached value for `key`, else `make()` (stored); no key: `make()`, not stored. */
  get(key: string | undefined, make: () => T): T {
    if (key === undefined) return make();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = make();
    this.entries.set(key, value);
    if (this.entries.size > this.cap) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.hits = 0;
  }
}

/** `path size mtime`, or undefined when the file has no mtime. */
export function stampKey(file: FileStamp): string | undefined {
  return file.mtimeMs === undefined ? undefined : `${file.path}\u0000${file.size}\u0000${file.mtimeMs}`;
}

const policyKeys = new WeakMap<Policy, string>();
/** A digest of the whole policy (any key may change a trim: window sizes, caps, formats). */
export function policyKey(policy: Policy): string {
  let key = policyKeys.get(policy);
  if (key === undefined) policyKeys.set(policy, (key = contentHash(JSON.stringify(policy))));
  return key;
}

/** The key of one trim: the file's stamp, then everything else the result depends on; undefined: not cacheable. */
export function trimKey(file: FileStamp, parts: (string | number | boolean)[]): string | undefined {
  const stamp = stampKey(file);
  return stamp === undefined ? undefined : [stamp, ...parts].join('\u0000');
}
