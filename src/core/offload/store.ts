import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The offload store (seed 002): a folder that holds oversized tool results whole, so the context can carry a
 * notice, a path and a preview instead. A git-ignored `.context/offload/` in the workspace, or a folder the host
 * passes in (extension storage). Files are named by content, so offloading the same result twice writes it once.
 * Retention by age and total size; `clearOffloadStore` empties it.
 */

export interface Retention {
  /** Files not written or reused for this many days go. 0 keeps files regardless of age. */
  maxAgeDays: number;
  /** Beyond this total, the oldest files go first. 0 means no size limit. */
  maxMegabytes: number;
}

export interface Stored {
  /** Absolute path of the stored file. */
  abs: string;
  bytes: number;
  /** false when the same content was already there. */
  written: boolean;
}

/** Where a payload comes from: a file (copied as is, byte for byte) or text (a host's in-memory result). */
export type Payload = { file: string } | { text: string };

export interface OffloadStore {
  readonly dir: string;
  put(name: string, payload: Payload, extension?: string): Stored;
}

const IGNORE_FILE = '.gitignore';
const CHUNK = 1 << 20;

/** A store over a folder. Retention runs once, before the first write of this store, never on files it wrote. */
export function openOffloadStore(dir: string, retention: Retention, now: () => Date = () => new Date()): OffloadStore {
  const written = new Set<string>();
  let pruned = false;
  return {
    dir,
    put(name, payload, extension) {
      ensureStoreDir(dir);
      if (!pruned) {
        pruned = true;
        applyRetention(dir, retention, now(), written);
      }
      const stored = putPayload(dir, name, payload, extension, now());
      written.add(path.basename(stored.abs));
      return stored;
    },
  };
}

/** Create the folder with a `.gitignore` of its own, so the payloads never reach version control. */
export function ensureStoreDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const ignore = path.join(dir, IGNORE_FILE);
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '# Offloaded tool results (Context Control): never committed.\n*\n');
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60) || 'result';
}

function putPayload(dir: string, name: string, payload: Payload, extension: string | undefined, when: Date): Stored {
  const hash = createHash('sha256');
  let bytes = 0;
  if ('text' in payload) {
    hash.update(payload.text);
    bytes = Buffer.byteLength(payload.text);
  } else {
    const fd = fs.openSync(payload.file, 'r');
    try {
      const buf = Buffer.alloc(CHUNK);
      for (let n = fs.readSync(fd, buf, 0, CHUNK, null); n > 0; n = fs.readSync(fd, buf, 0, CHUNK, null)) {
        hash.update(buf.subarray(0, n));
        bytes += n;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  const ext = extension ?? ('file' in payload ? path.extname(payload.file) : '.txt');
  const abs = path.join(dir, `${safeName(name)}-${hash.digest('hex').slice(0, 12)}${ext || '.txt'}`);
  if (fs.existsSync(abs) && fs.statSync(abs).size === bytes) {
    fs.utimesSync(abs, when, when);
    return { abs, bytes, written: false };
  }
  const tmp = path.join(dir, `.tmp-${randomBytes(6).toString('hex')}`);
  if ('text' in payload) fs.writeFileSync(tmp, payload.text);
  else fs.copyFileSync(payload.file, tmp);
  fs.renameSync(tmp, abs);
  fs.utimesSync(abs, when, when);
  return { abs, bytes, written: true };
}

export interface RetentionResult {
  removed: string[];
  freedBytes: number;
}

/** Remove files older than the age limit, then the oldest until the total fits; never the names in `keep`. */
export function applyRetention(dir: string, retention: Retention, now: Date, keep: Set<string> = new Set()): RetentionResult {
  const files = listStore(dir);
  const removed: string[] = [];
  let freedBytes = 0;
  const drop = (f: StoreEntry) => {
    fs.rmSync(path.join(dir, f.name), { force: true });
    removed.push(f.name);
    freedBytes += f.bytes;
  };
  const maxAgeMs = retention.maxAgeDays * 24 * 3600 * 1000;
  let live = files.filter((f) => {
    const old = retention.maxAgeDays > 0 && now.getTime() - f.mtimeMs > maxAgeMs && !keep.has(f.name);
    if (old) drop(f);
    return !old;
  });
  if (retention.maxMegabytes > 0) {
    const limit = retention.maxMegabytes * 1024 * 1024;
    let total = live.reduce((n, f) => n + f.bytes, 0);
    live = live.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
    for (const f of live) {
      if (total <= limit) break;
      if (keep.has(f.name)) continue;
      drop(f);
      total -= f.bytes;
    }
  }
  return { removed, freedBytes };
}

export interface StoreEntry {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** The payload files of a store (its own `.gitignore` and unfinished writes aside). */
export function listStore(dir: string): StoreEntry[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== IGNORE_FILE)
    .map((e) => {
      const st = fs.statSync(path.join(dir, e.name));
      return { name: e.name, bytes: st.size, mtimeMs: st.mtimeMs };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Empty the store: every payload goes (and leftovers of interrupted writes); the folder and its `.gitignore` stay. */
export function clearOffloadStore(dir: string): RetentionResult {
  const files = listStore(dir);
  for (const f of files) fs.rmSync(path.join(dir, f.name), { force: true });
  return { removed: files.map((f) => f.name), freedBytes: files.reduce((n, f) => n + f.bytes, 0) };
}
