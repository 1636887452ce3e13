import { execFileSync } from 'node:child_process';

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
}

export const NO_GIT: ChangeReader = { workingTree: () => [], recentCommits: () => [] };

/**
 * Read-only git on an untrusted workspace: no hooks, no fsmonitor, no external diff or textconv, no system config, no
 * prompt; execFile, never a shell. Any failure (not a repository, no commits, git missing) reads as "no changes".
 */
export function gitReader(root: string, run: (args: string[]) => string = safeGit(root)): ChangeReader {
  const attempt = (args: string[]): string | undefined => {
    try {
      return run(args);
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
      const out = attempt(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
      if (!out) return [];
      const paths: string[] = [];
      const fields = out.split('\0');
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        if (f.length < 4) continue;
        paths.push(f.slice(3));
        if (f[0] === 'R' || f[0] === 'C') i++; // the rename's source follows
      }
      return [...new Set(paths)].sort();
    },
    recentCommits(count) {
      if (count <= 0 || !isTop()) return [];
      const out = attempt(['log', `-n${count}`, '-p', '-U2', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--format=%x00commit %H%x00%s']);
      return out ? withoutBulk(parseLog(out)) : [];
    },
  };
}

export function safeGit(root: string): (args: string[]) => string {
  return (args) =>
    execFileSync('git', ['-c', 'core.fsmonitor=', '-c', 'core.hooksPath=/dev/null', '-c', 'diff.external=', '-c', 'core.pager=cat', '-C', root, ...args], {
      encoding: 'utf8',
      maxBuffer: 8 * 1024 * 1024,
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' },
    });
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
