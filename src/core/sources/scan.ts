import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
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
}

export interface ScanResult {
  files: ScannedFile[];
  warnings: Warning[];
}

const SECRET_FILES = picomatch(['**/.env', '**/.env.*', '**/*.pem', '**/*.key', '**/id_rsa*', '**/.npmrc', '**/credentials*.json'], { dot: true });

/** True for files that hold secrets by convention: they are never read, let alone sent. */
export function isSecretFile(rel: string): boolean {
  return SECRET_FILES(rel) && !rel.endsWith('.example') && !rel.endsWith('.sample');
}

/** Walk the workspace: honour .gitignore files (nested ones too) and the policy's excludes, skip binaries and secrets. */
export function scanWorkspace(root: string, options: ScanOptions): ScanResult {
  const files: ScannedFile[] = [];
  const warnings: Warning[] = [];
  const excluded = picomatch(options.exclude, { dot: true });
  const walk = (dir: string, rules: { base: string; ig: Ignore }[]) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      warnings.push({ source: rel(root, dir) || '.', message: `cannot read folder: ${(e as Error).message}` });
      return;
    }
    const here = rules.slice();
    const gitignore = path.join(dir, '.gitignore');
    if (fs.existsSync(gitignore)) {
      try {
        here.push({ base: rel(root, dir), ig: ignore().add(fs.readFileSync(gitignore, 'utf8')) });
      } catch (e) {
        warnings.push({ source: rel(root, gitignore), message: `cannot read .gitignore: ${(e as Error).message}` });
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const abs = path.join(dir, entry.name);
      const relPath = rel(root, abs);
      const isDir = entry.isDirectory();
      if (excluded(relPath) || excluded(relPath + '/')) continue;
      if (ignoredBy(here, relPath, isDir)) continue;
      if (isDir) {
        walk(abs, here);
        continue;
      }
      if (!entry.isFile()) continue;
      if (isSecretFile(relPath)) {
        warnings.push({ source: relPath, message: 'secret file (by name): never read or sent' });
        continue;
      }
      let stat: fs.Stats;
      try {
        stat = fs.statSync(abs);
      } catch (e) {
        warnings.push({ source: relPath, message: `cannot stat: ${(e as Error).message}` });
        continue;
      }
      if (stat.size > options.maxFileBytes) {
        warnings.push({ source: relPath, message: `skipped: ${stat.size} bytes exceeds max_file_bytes ${options.maxFileBytes}` });
        continue;
      }
      if (stat.size > 0 && isBinary(abs)) continue;
      files.push({ path: relPath, size: stat.size, mtimeMs: stat.mtimeMs });
    }
  };
  walk(root, []);
  return { files, warnings };
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

/** A NUL byte in the first 8 KiB marks a binary file. */
export function isBinary(abs: string): boolean {
  const fd = fs.openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).includes(0);
  } finally {
    fs.closeSync(fd);
  }
}

/** Read a text file, dropping a BOM and normalising CRLF; callers get lines that match what editors show. */
export function readText(root: string, relPath: string): string {
  const text = fs.readFileSync(path.join(root, relPath), 'utf8');
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
}

/** Lines of a file, read in chunks so a 50 MB log never sits whole in memory. Re-iterable. */
export function fileLines(abs: string, chunkBytes = 64 * 1024): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      const fd = fs.openSync(abs, 'r');
      try {
        const buf = Buffer.alloc(chunkBytes);
        let carry = '';
        const decoder = new TextDecoder('utf-8');
        let first = true;
        for (;;) {
          const n = fs.readSync(fd, buf, 0, buf.length, null);
          if (n === 0) break;
          let chunk = carry + decoder.decode(buf.subarray(0, n), { stream: true });
          if (first) {
            if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
            first = false;
          }
          const parts = chunk.split('\n');
          carry = parts.pop() ?? '';
          for (const part of parts) yield part.endsWith('\r') ? part.slice(0, -1) : part;
        }
        carry += decoder.decode();
        if (carry.length > 0) yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

export function linesOf(text: string): Iterable<string> {
  return {
    [Symbol.iterator]: () => {
      const lines = text.split('\n');
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines[Symbol.iterator]();
    },
  };
}
