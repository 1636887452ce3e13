import { createHash } from 'node:crypto';
import { host, hostFs as fs } from '../host';
import * as path from 'node:path';
import { InputError } from '../errors';
import { storable, type Storable } from './redacted';
import { tmpName, writeWhole } from '../write-whole';
import { Lru } from '../lru';

/**
 * The offload store: a folder that holds oversized tool results whole, so the context can carry a
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

/** Where a payload comes from: a file or text (a host's in-memory result); either is written without its secrets
 * (redacted.ts): byte for byte when it holds none. */
export type Payload = { file: string } | { text: string };

export interface OffloadStore {
  readonly dir: string;
  put(name: string, payload: Payload, extension?: string): Stored;
  /** Writes the names `put` has not recorded yet (a store opened with `later`); nothing when there are none. */
  flush(): void;
}

const IGNORE_FILE = '.gitignore';
const IGNORE_TEXT = '# Offloaded tool results (Context Control): never committed.\n*\n';
/** The marker that makes a folder an offload store, and its record: the only files retention and clear may remove. */
export const STORE_MARKER = '.context-control-offload.json';
const MARKER_TAG = 'context-control offload store';
const CHUNK = 1 << 20;

interface StoreRecord {
  store: typeof MARKER_TAG;
  /** Names of the payload files this store wrote (directly in the folder). */
  files: string[];
}

/**
 * A store over a folder. Retention runs once, before the first write of this store, never on files it wrote.
 *
 * Each put adds its file's name to the store's record, which is rewritten whole. With `later` (a scheduler: the
 * gateway's, which runs a job when no call is in flight), the names are held and written by one rewrite when the
 * scheduled job runs, or at `flush`: a burst of offloads costs one record write, not one each (a store of a few
 * hundred files: about a millisecond each on this machine). Until then another process does not see the new files
 * in the record: it lists them as foreign and never removes them. A record gone by then (the folder unmarked) is not
 * written again.
 */
export function openOffloadStore(dir: string, retention: Retention, now?: () => Date, later?: (job: () => void) => void): OffloadStore {
  const opener = now ? undefined : host();
  const clock = now ?? (() => opener!.now());
  const written = new Set<string>();
  const held = new Set<string>();
  let pruned = false;
  const flush = () => {
    if (held.size === 0) return;
    const names = [...held];
    held.clear();
    const current = readStoreRecord(dir);
    const missing = names.filter((n) => !current?.files.includes(n));
    if (current && missing.length > 0) writeRecordFile(dir, { ...current, files: [...current.files, ...missing] });
  };
  return {
    dir,
    put(name, payload, extension) {
      const record = ensureStoreDir(dir);
      if (!pruned) {
        pruned = true;
        applyRetention(dir, retention, clock(), written);
      }
      const stored = putPayload(dir, name, payload, extension, clock());
      const base = path.basename(stored.abs);
      written.add(base);
      if (later) {
        if (held.size === 0) later(flush);
        held.add(base);
        return stored;
      }
      const current = readStoreRecord(dir) ?? record;
      if (!current.files.includes(base)) writeRecordFile(dir, { ...current, files: [...current.files, base] });
      return stored;
    },
    flush,
  };
}

/**
 * The names of the last records read, by marker file and by its text: an offload reads its store's record up to three
 * times (the location check, ensureStoreDir, the re-read after writing), and a store of thousands of files took
 * milliseconds to parse each time. Keyed by the text read, so a record changed by anyone is parsed again.
 */
const parsedRecords = new Lru<string, { text: string; files: readonly string[] }>(8);

/** The store's record, or undefined when the folder is not an offload store (no valid marker). */
export function readStoreRecord(dir: string): StoreRecord | undefined {
  const file = path.join(dir, STORE_MARKER);
  try {
    if (!fs.lstatSync(file).isFile()) return undefined;
    const text = fs.readFileSync(file, 'utf8');
    const known = parsedRecords.get(file);
    if (known && known.text === text) return { store: MARKER_TAG, files: [...known.files] };
    const raw = JSON.parse(text) as Partial<StoreRecord>;
    if (raw?.store !== MARKER_TAG || !Array.isArray(raw.files)) return undefined;
    // Only plain names directly in the folder: a record can never point elsewhere.
    const files = raw.files.filter((f): f is string => typeof f === 'string' && f === path.basename(f) && f !== '' && f !== '.' && f !== '..' && f !== STORE_MARKER);
    parsedRecords.set(file, { text, files });
    return { store: MARKER_TAG, files: [...files] };
  } catch {
    return undefined;
  }
}

function writeRecordFile(dir: string, record: StoreRecord): void {
  writeWhole(path.join(dir, STORE_MARKER), JSON.stringify(record, null, 2) + '\n');
}

/**
 * Why an existing folder without the marker cannot become a store: it holds files Context Control did not write.
 * Empty, or holding the `.gitignore` an earlier version wrote, it can (files in no record are never removed).
 */
export function storeRefusal(dir: string): string | undefined {
  // A store with its record is never refused: its folder is not listed (it holds every file the store wrote).
  if (readStoreRecord(dir)) return undefined;
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const ignore = path.join(dir, IGNORE_FILE);
  const legacy = entries.includes(IGNORE_FILE) && fs.lstatSync(ignore).isFile() && fs.readFileSync(ignore, 'utf8') === IGNORE_TEXT;
  if (entries.length === 0 || legacy) return undefined;
  const shown = entries.sort().slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  return `holds files Context Control did not write (${shown}) and no ${STORE_MARKER}: refused, nothing written or removed`;
}

/**
 * Create the store, or open the one there: a folder Context Control marks as its own (a marker holding the record of
 * the files it wrote) and git-ignores. A folder that exists without the marker is only taken when it is empty, or
 * holds the `.gitignore` an earlier version wrote (its other files are then never removed, being in no record);
 * anything else is refused: the store never takes over a folder holding files it did not write.
 */
export function ensureStoreDir(dir: string): StoreRecord {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory() && !st.isSymbolicLink()) throw new InputError('the offload store is not a folder', dir);
  const existing = readStoreRecord(dir);
  if (existing) return existing;
  const refused = storeRefusal(dir);
  if (refused) throw new InputError(`the offload store folder ${refused}`, dir);
  fs.mkdirSync(dir, { recursive: true });
  const record: StoreRecord = { store: MARKER_TAG, files: [] };
  writeRecordFile(dir, record);
  const ignore = path.join(dir, IGNORE_FILE);
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, IGNORE_TEXT);
  return record;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60) || 'result';
}

function putPayload(dir: string, name: string, given: Payload, extension: string | undefined, when: Date): Stored {
  const ext = extension ?? ('file' in given ? path.extname(given.file) : '.txt');
  const payload = storable(given);
  if ('lines' in payload) return putLines(dir, name, payload, ext, when);
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
  const abs = path.join(dir, `${safeName(name)}-${hash.digest('hex').slice(0, 12)}${ext || '.txt'}`);
  if (fs.existsSync(abs) && fs.statSync(abs).size === bytes) {
    fs.utimesSync(abs, when, when);
    return { abs, bytes, written: false };
  }
  writeWhole(abs, 'text' in payload ? payload.text : (tmp) => fs.copyFileSync(payload.file, tmp));
  fs.utimesSync(abs, when, when);
  return { abs, bytes, written: true };
}

/** A redacted file's lines, written to a temporary file while hashed, then named by that hash. */
function putLines(dir: string, name: string, payload: Extract<Storable, { lines: unknown }>, ext: string, when: Date): Stored {
  const hash = createHash('sha256');
  const tmp = tmpName(dir);
  let bytes = 0;
  fs.writeFileSync(tmp, '');
  let chunk: string[] = [];
  let chars = 0;
  const flush = () => {
    const text = chunk.join('');
    hash.update(text);
    bytes += Buffer.byteLength(text);
    fs.appendFileSync(tmp, text);
    chunk = [];
    chars = 0;
  };
  for (const line of payload.lines()) {
    chunk.push(line, '\n');
    chars += line.length + 1;
    if (chars >= CHUNK) flush();
  }
  flush();
  const abs = path.join(dir, `${safeName(name)}-${hash.digest('hex').slice(0, 12)}${ext || '.txt'}`);
  fs.renameSync(tmp, abs);
  fs.utimesSync(abs, when, when);
  return { abs, bytes, written: true };
}

export interface RetentionResult {
  removed: string[];
  freedBytes: number;
}

/** Remove recorded files older than the age limit, then the oldest until the total fits; never the names in `keep`. */
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
  forget(dir, removed);
  return { removed, freedBytes };
}

export interface StoreEntry {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** The payload files the store's record lists and that are still there as regular files; nothing else. */
export function listStore(dir: string): StoreEntry[] {
  const record = readStoreRecord(dir);
  if (!record) return [];
  const out: StoreEntry[] = [];
  for (const name of record.files) {
    const st = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (st?.isFile()) out.push({ name, bytes: st.size, mtimeMs: st.mtimeMs });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Files in the folder that the record does not list (the user's, or an earlier version's): never removed. */
export function foreignFiles(dir: string): string[] {
  const record = readStoreRecord(dir);
  const own = new Set([...(record?.files ?? []), STORE_MARKER, IGNORE_FILE]);
  try {
    return fs.readdirSync(dir).filter((n) => !own.has(n) && !n.startsWith('.tmp-')).sort();
  } catch {
    return [];
  }
}

function forget(dir: string, names: string[]): void {
  if (names.length === 0) return;
  const record = readStoreRecord(dir);
  if (!record) return;
  const gone = new Set(names);
  writeRecordFile(dir, { ...record, files: record.files.filter((f) => !gone.has(f)) });
}

/**
 * Empty the store: every payload its record lists goes; the folder, its marker and `.gitignore`, and any file it
 * did not write stay. A folder without the marker is not a store: nothing is removed.
 */
export function clearOffloadStore(dir: string): RetentionResult {
  if (fs.existsSync(dir) && !readStoreRecord(dir)) throw new InputError(`not an offload store (no ${STORE_MARKER}): nothing removed`, dir);
  const files = listStore(dir);
  for (const f of files) fs.rmSync(path.join(dir, f.name), { force: true });
  forget(dir, files.map((f) => f.name));
  return { removed: files.map((f) => f.name), freedBytes: files.reduce((n, f) => n + f.bytes, 0) };
}
