import { hostFs as fs, progressCounter, type HostStats, type HostDirent } from '../host';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { InputError } from '../errors';
import { isSecretPath } from '../redact/files';
import { globMatcher } from './globs';
import { resolveInWorkspace, type GuardOptions } from './guard';
import type { Warning } from '../types';

/** One file the scan found, with what it knows without reading it whole. */
export interface ScannedFile {
  /** Workspace-relative, forward slashes. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ScanOptions {
  exclude: string[];
  maxFileBytes: number;
  /** Files larger than this are listed but flagged: only streaming readers (tool output) may open them. */
  maxTextBytes?: number;
  /** Files read as streams (logs, tool output): never skipped for their size, whatever maxFileBytes says. */
  streamable?: (relPath: string) => boolean;
  /**
   * Files the caller reads whole next (documents): read here once, whole, their binary check made on those bytes, and
   * their text (as `readText` gives it) returned in `texts`, so each is opened once, not twice.
   */
  readWhole?: (relPath: string, size: number) => boolean;
  /**
   * Files whose this version (path, size, mtime) is known to be text (a kept document, sources/kept-documents.ts):
   * neither read nor sniffed for the binary check.
   */
  knownText?: (relPath: string, size: number, mtimeMs: number) => boolean;
}

export interface ScanResult {
  files: ScannedFile[];
  /** Files found but not readable as text (binary, unreadable, a FIFO or a device), each with its reason. */
  skipped: { path: string; reason: string }[];
  warnings: Warning[];
  /** The text of each file `readWhole` asked for that is not binary (BOM dropped, CRLF normalised). */
  texts: Map<string, string>;
}


/** `EACCES: permission denied`: an fs error without the absolute path Node appends. */
export function fsReason(e: unknown): string {
  return ((e as Error).message ?? String(e)).replace(/, \w+ '[^']*'( -> '[^']*')?$/, '');
}

/** What a path is, without opening it (opening a FIFO would block): a special file is never read. */
export function specialKind(st: HostStats): string | undefined {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return undefined;
}

/**
 * An input file of the workspace (pins, overrides, the session) before it is read: absent, a file to read, or a
 * FIFO or device that is never opened (reading it would block), skipped with the warning returned. A folder is bad
 * input, named as `shown`; so is a file that leads outside the workspace (through a link, `.context` itself a link)
 * or to a secret file: with `guard`, the path goes through the workspace guard (sources/guard.ts) first.
 */
export function checkInputFile(abs: string, at: { shown: string; label: string; what: string; unused: string }, guard?: GuardOptions): 'absent' | 'file' | Warning {
  if (guard) {
    const d = resolveInWorkspace(abs, { ...guard, expect: 'any', mayBeMissing: true });
    if (!d.ok && d.kind !== 'special' && d.kind !== 'missing') throw new InputError(d.why, at.shown);
  }
  let st: HostStats;
  try {
    st = fs.statSync(abs);
  } catch {
    return 'absent';
  }
  if (st.isDirectory()) throw new InputError(`is a folder, not ${at.what}`, at.shown);
  if (!st.isFile()) return { source: at.label, message: `skipped: ${specialKind(st) ?? 'not a regular file'}, never opened; ${at.unused}` };
  return 'file';
}

/**
 * Walk the workspace: honour .gitignore files (nested ones too) and the policy's excludes, skip secrets. Symbolic
 * links are followed when they lead inside the workspace (a linked AGENTS.md is read under its own name), with loop
 * detection; a link leading outside is refused with a warning. Binary, unreadable and special files (FIFOs,
 * sockets, devices) are never opened for reading as text: they are listed in `skipped` with the reason.
 */
export function scanWorkspace(root: string, options: ScanOptions): ScanResult {
  const files: ScannedFile[] = [];
  const skipped: ScanResult['skipped'] = [];
  const warnings: Warning[] = [];
  const texts = new Map<string, string>();
  const excluded = globMatcher(options.exclude, { dot: true });
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    realRoot = path.resolve(root);
  }
  const visited = new Set<string>();
  const countScanned = progressCounter('scan');
  // `dirRel` is rel(root, dir), carried down: an entry's path is its folder's and its name (rel() on each of 100 000
  // files, path.relative and a split, was a tenth of a warm scan).
  const walk = (dir: string, dirRel: string, real: string, rules: { base: string; ig: Ignore }[]) => {
    if (visited.has(real)) {
      warnings.push({ source: rel(root, dir) || '.', message: 'symbolic link to a folder already scanned (a loop or a second link): not read again' });
      return;
    }
    visited.add(real);
    let entries: HostDirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      warnings.push({ source: rel(root, dir) || '.', message: `cannot read folder: ${fsReason(e)}` });
      return;
    }
    const here = rules.slice();
    const gitignore = path.join(dir, '.gitignore');
    const ignoreStat = statOrUndefined(gitignore);
    if (ignoreStat && !insideRoot(realRoot, gitignore)) {
      warnings.push({ source: rel(root, gitignore), message: 'symbolic link leads outside the workspace: not followed' });
    } else if (ignoreStat && !ignoreStat.isFile()) {
      warnings.push({ source: rel(root, gitignore), message: `skipped: ${specialKind(ignoreStat) ?? 'not a regular file'}, not read` });
    } else if (ignoreStat) {
      try {
        here.push({ base: rel(root, dir), ig: ignore().add(fs.readFileSync(gitignore, 'utf8')) });
      } catch (e) {
        warnings.push({ source: rel(root, gitignore), message: `cannot read .gitignore: ${fsReason(e)}` });
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const abs = path.join(dir, entry.name);
      const relPath = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      let stat: HostStats;
      // The entry's real path, for a folder only (a link's is resolved here; a plain entry's is joined when it is a folder).
      let target: string | undefined;
      try {
        if (entry.isSymbolicLink()) {
          target = fs.realpathSync(abs);
          // Through the workspace guard: a link leading outside is not followed, nor one to a secret file (`notes.md → .env`).
          const d = resolveInWorkspace(relPath, { root, expect: 'any' });
          if (!d.ok && (d.kind === 'link-outside' || d.kind === 'outside')) {
            // (.gitignore was reported when its folder's rules were read)
            if (!excluded(relPath) && entry.name !== '.gitignore') warnings.push({ source: relPath, message: 'symbolic link leads outside the workspace: not followed' });
            continue;
          }
          if (!d.ok && d.kind === 'secret') {
            if (!excluded(relPath)) warnings.push({ source: relPath, message: `${d.why.replace(/: refused, never read$/, '')}: never read or sent` });
            continue;
          }
        }
        stat = fs.statSync(abs);
      } catch (e) {
        if (!excluded(relPath)) warnings.push({ source: relPath, message: `cannot read: ${fsReason(e)}` });
        continue;
      }
      const isDir = stat.isDirectory();
      if (excluded(relPath) || excluded(relPath + '/')) continue;
      if (ignoredBy(here, relPath, isDir)) continue;
      if (isDir) {
        walk(abs, relPath, target ?? path.join(real, entry.name), here);
        continue;
      }
      if (isSecretPath(relPath)) {
        warnings.push({ source: relPath, message: 'secret file (by name): never read or sent' });
        continue;
      }
      const special = specialKind(stat);
      if (special || !stat.isFile()) {
        skipped.push({ path: relPath, reason: `${special ?? 'not a regular file'}: never opened` });
        continue;
      }
      if (stat.size > options.maxFileBytes && !options.streamable?.(relPath)) {
        warnings.push({ source: relPath, message: `skipped: ${stat.size} bytes exceeds max_file_bytes ${options.maxFileBytes}` });
        continue;
      }
      let binary = false;
      try {
        if (options.knownText?.(relPath, stat.size, stat.mtimeMs)) binary = false;
        else if (stat.size > 0 && options.readWhole?.(relPath, stat.size)) {
          const bytes = fs.readFileSync(abs);
          binary = bytes.subarray(0, SNIFF.length).includes(0);
          if (!binary) texts.set(relPath, normalText(bytes.toString('utf8')));
        } else binary = stat.size > 0 && isBinary(abs, stat.size);
      } catch (e) {
        skipped.push({ path: relPath, reason: `unreadable (${fsReason(e)})` });
        continue;
      }
      if (binary) {
        skipped.push({ path: relPath, reason: 'binary (a NUL byte in the first 8 KiB)' });
        continue;
      }
      files.push({ path: relPath, size: stat.size, mtimeMs: stat.mtimeMs });
      countScanned?.();
    }
  };
  walk(root, '', realRoot, []);
  return { files, skipped, warnings, texts };
}

/** True when `abs`, resolved through links, is inside `realRoot` (itself resolved). */
export function insideRoot(realRoot: string, abs: string): boolean {
  try {
    const rel = path.relative(realRoot, fs.realpathSync(abs));
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  } catch {
    return false;
  }
}

function statOrUndefined(abs: string): HostStats | undefined {
  try {
    return fs.statSync(abs);
  } catch {
    return undefined;
  }
}

function ignoredBy(rules: { base: string; ig: Ignore }[], relPath: string, isDir: boolean): boolean {
  for (const { base, ig } of rules) {
    const local = base ? (relPath.startsWith(base + '/') ? relPath.slice(base.length + 1) : undefined) : relPath;
    if (local === undefined || local === '') continue;
    if (ig.ignores(isDir ? local + '/' : local)) return true;
  }
  return false;
}

function rel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

/** One sniff buffer for the whole process: a scan of 50k files allocated 50k of them (GC was 18 % of the scan). */
const SNIFF = Buffer.alloc(8192);

/** A NUL byte in the first 8 KiB marks a binary file; only what is there (`size`, when known) is read. */
export function isBinary(abs: string, size = SNIFF.length): boolean {
  const fd = fs.openSync(abs, 'r');
  try {
    const n = fs.readSync(fd, SNIFF, 0, Math.min(SNIFF.length, Math.max(1, size)), 0);
    return SNIFF.subarray(0, n).includes(0);
  } finally {
    fs.closeSync(fd);
  }
}

/** Read a text file, dropping a BOM and normalising CRLF; callers get lines that match what editors show. */
export function readText(root: string, relPath: string): string {
  return normalText(fs.readFileSync(path.join(root, relPath), 'utf8'));
}

/** File text as `readText` gives it: no BOM, LF line ends. */
export function normalText(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
}

export { fileLines, MAX_LINE_CHARS } from './line-reader';

export function linesOf(text: string): Iterable<string> {
  return {
    [Symbol.iterator]: () => {
      const lines = text.split('\n');
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines[Symbol.iterator]();
    },
  };
}
