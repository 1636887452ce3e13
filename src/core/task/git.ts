import { createHash } from 'node:crypto';
import { host, hostFs as fs, type HostStats } from '../host';
import * as path from 'node:path';
import type { Warning } from '../types';
import { gitLocation } from './git-dir';

/** A change recorded in git: one file of one recent commit, with its hunks. */
export interface CommitChange {
  commit: string;
  subject: string;
  path: string;
  hunks: Hunk[];
}

export interface Hunk {
  /** The `@@ -a,b +c,d @@` header line. */
  header: string;
  /** First line of the hunk in the new file (1-based). */
  newStart: number;
  lines: string[];
}

/** What the chain asks of git. Injected, so unit tests that do not test git need none. */
export interface ChangeReader {
  /** Workspace-relative paths changed in the working tree or the index (untracked files included). */
  workingTree(): string[];
  /** The files changed by the last `count` commits, newest first, with their hunks. */
  recentCommits(count: number): CommitChange[];
  /** Why git was not read (a `.git` that leads outside the workspace), for the manifest. */
  warnings?: Warning[];
}

export const NO_GIT: ChangeReader = { workingTree: () => [], recentCommits: () => [] };

/**
 * Read-only git on an untrusted workspace: no hooks, no fsmonitor, no external diff or textconv, no system config, no
 * prompt; execFile, never a shell. Any failure (not a repository, no commits, git missing) reads as "no changes".
 */
export function gitReader(root: string, given?: (args: string[]) => string): ChangeReader {
  let run = given;
  if (!run) {
    // Only the workspace's own repository, at its top, checked through the workspace guard (git-dir.ts).
    const where = gitLocation(root);
    if ('none' in where) return NO_GIT;
    if ('refused' in where) return { ...NO_GIT, warnings: [{ source: '.git', message: where.refused }] };
    run = safeGit(root, where.gitDir);
  }
  const git = run;
  const attempt = (args: string[]): string | undefined => {
    try {
      return git(args);
    } catch {
      return undefined;
    }
  };
  // Only a workspace that is the top of its repository: a folder inside a larger repository (an example, a vendored
  // project) would otherwise take the enclosing project's history as its own.
  let top: boolean | undefined;
  const isTop = () => (top ??= attempt(['rev-parse', '--show-prefix'])?.trim() === '');
  return {
    workingTree() {
      if (!isTop()) return [];
      // Not `git status`: comparing the working tree through git runs the repository's own clean filters
      // (`filter.<x>.clean` in .git/config, chosen by .gitattributes), which is code from the workspace. The index is
      // read as data instead, and each file whose size or mtime differs is hashed here as git would hash a blob.
      const index = attempt(['ls-files', '--stage', '--debug']);
      const untracked = attempt(['ls-files', '-z', '--others', '--exclude-standard']);
      if (index === undefined) return [];
      const paths = changedInIndex(root, parseIndex(index));
      for (const p of (untracked ?? '').split('\0')) if (p) paths.push(p);
      return [...new Set(paths)].sort();
    },
    recentCommits(count) {
      if (count <= 0 || !isTop()) return [];
      const out = attempt(['-c', 'log.showSignature=false', 'log', `-n${count}`, '-p', '-U2', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--format=%x00commit %H%x00%s']);
      return out ? withoutBulk(parseLog(out)) : [];
    },
  };
}

export function safeGit(root: string, gitDir?: string): (args: string[]) => string {
  const where = gitDir ? [`--git-dir=${gitDir}`, `--work-tree=${root}`] : [];
  return (args) =>
    host().git({
      args: ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'diff.external=', '-c', 'core.pager=cat', '-c', 'core.quotePath=false', '-c', 'log.showSignature=false', '-C', root, ...where, ...args],
      maxBuffer: 8 * 1024 * 1024,
      timeoutMs: 10_000,
      env: { ...gitFreeEnv(host().env()), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', GIT_CEILING_DIRECTORIES: path.dirname(path.resolve(root)) },
    });
}

/** The environment without any GIT_* variable (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_CONFIG_*…): git reads the repository found here, nothing else. */
export function gitFreeEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^GIT_/i.test(k)));
}

/** A commit that touches more files than this (an import, a reformat, a rename sweep) says nothing about one task. */
export const MAX_FILES_PER_COMMIT = 20;

export function withoutBulk(changes: CommitChange[]): CommitChange[] {
  const count = new Map<string, number>();
  for (const c of changes) count.set(c.commit, (count.get(c.commit) ?? 0) + 1);
  return changes.filter((c) => (count.get(c.commit) ?? 0) <= MAX_FILES_PER_COMMIT);
}

/** `git log -p` with `%x00commit %H%x00%s` headers → one change per commit and file. */
export function parseLog(text: string): CommitChange[] {
  const out: CommitChange[] = [];
  const parts = text.split('\0commit ');
  for (const part of parts.slice(1)) {
    const [commit, rest = ''] = splitOnce(part, '\0');
    const [subject, diff = ''] = splitOnce(rest, '\n');
    let current: CommitChange | undefined;
    let hunk: Hunk | undefined;
    for (const line of diff.split('\n')) {
      const file = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
      if (file) {
        current = { commit, subject, path: file[2], hunks: [] };
        out.push(current);
        hunk = undefined;
        continue;
      }
      const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (h && current) {
        hunk = { header: line, newStart: Number(h[1]), lines: [] };
        current.hunks.push(hunk);
        continue;
      }
      if (hunk && /^[ +\\-]/.test(line)) hunk.lines.push(line);
    }
  }
  return out;
}

function splitOnce(text: string, sep: string): [string, string?] {
  const i = text.indexOf(sep);
  return i < 0 ? [text] : [text.slice(0, i), text.slice(i + sep.length)];
}

/** One entry of `git ls-files --stage --debug`: the blob id and the stat data git recorded. */
export interface IndexEntry {
  path: string;
  sha: string;
  mtime: number;
  size: number;
}

/** Parse `git ls-files --stage --debug` (paths quoted by git are skipped: they are rare and never needed). */
export function parseIndex(text: string): IndexEntry[] {
  const out: IndexEntry[] = [];
  let cur: IndexEntry | undefined;
  for (const line of text.split('\n')) {
    const head = /^\d{6} ([0-9a-f]{40,64}) \d\t(.+)$/.exec(line);
    if (head) {
      cur = head[2].startsWith('"') ? undefined : { path: head[2], sha: head[1], mtime: -1, size: -1 };
      if (cur) out.push(cur);
      continue;
    }
    const mtime = /^\s+mtime: (\d+):/.exec(line);
    if (mtime && cur) cur.mtime = Number(mtime[1]);
    const size = /^\s+size: (\d+)/.exec(line);
    if (size && cur) cur.size = Number(size[1]);
  }
  return out;
}

/** Files larger than this are taken as changed when their stat data differs, without hashing them. */
const MAX_HASH_BYTES = 4 * 1024 * 1024;

/** Tracked files whose content differs from the index (or that are gone), decided without running git on them. */
export function changedInIndex(root: string, entries: IndexEntry[]): string[] {
  const changed: string[] = [];
  for (const e of entries) {
    let st: HostStats;
    try {
      st = fs.lstatSync(path.join(root, e.path));
    } catch {
      changed.push(e.path);
      continue;
    }
    if (!st.isFile()) continue;
    if (st.size === e.size && Math.floor(st.mtimeMs / 1000) === e.mtime) continue;
    // git records size 0 for a racily clean entry, so a size that differs is confirmed by the hash too.
    if (st.size > MAX_HASH_BYTES || blobSha(fs.readFileSync(path.join(root, e.path)), e.sha.length) !== e.sha) changed.push(e.path);
  }
  return changed;
}

/** The id git gives a blob: sha1 (or sha256 for 64-hex ids) of `blob <size>\0<content>`. */
export function blobSha(content: Buffer, hexLength = 40): string {
  return createHash(hexLength === 64 ? 'sha256' : 'sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
