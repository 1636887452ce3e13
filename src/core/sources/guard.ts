import { hostFs as fs, type HostStats } from '../host';
import * as path from 'node:path';
import { InputError } from '../errors';
import { isSecretPath } from '../redact/files';
import { holdsSecret } from '../redact/apply';

/**
 * The one way a path from outside the program (a task, a policy, a checks file, a pin, an override, a tool
 * argument, a git setting, a session file, a setup target) becomes a file to read or write. It resolves links,
 * refuses anything outside the workspace (or a root the caller allows: the offload store, the extension's
 * storage), refuses special files (never opened: a FIFO would block), folders where a file is expected, secret
 * files by name (the path given and the file a link leads to), and hard-linked or linked write targets. Nothing is
 * opened here: only lstat, stat and realpath.
 */

export type RefusalKind = 'empty' | 'outside' | 'link-outside' | 'secret' | 'missing' | 'folder' | 'not-folder' | 'special' | 'link' | 'hard-link' | 'unreadable';

export interface GuardOptions {
  /** The workspace folder. */
  root: string;
  /** What a relative path is relative to; default the workspace. */
  base?: string;
  /** More roots a path may resolve into (the offload store, the extension's storage). */
  allowedRoots?: string[];
  /** 'write': the final name may not be a link, nor a file with other hard links (nlink > 1). Default 'read'. */
  access?: 'read' | 'write';
  /** What must be there; default 'file'. 'any': a file or a folder. */
  expect?: 'file' | 'folder' | 'any';
  /** A path that does not exist yet is accepted (a write target, an optional file); default refused. */
  mayBeMissing?: boolean;
  /**
   * The caller's own path (a command-line `--tool-result` or `--policy`): when it is named outside every root it is
   * taken as named. A path named inside the workspace must still stay inside through its links.
   */
  outsideAsNamed?: boolean;
  /** Secret files by name are refused; default true. */
  refuseSecrets?: boolean;
}

export type PathDecision =
  | {
      ok: true;
      /** The path as named, made absolute (links not resolved): what the caller reads or writes. */
      abs: string;
      /** The file it is, links resolved (for a missing path: its nearest existing folder, resolved, plus the rest). */
      real: string;
      /** Workspace-relative path (`/` separators) of the real file, when it is in the workspace. */
      rel?: string;
      exists: boolean;
      size?: number;
    }
  | {
      ok: false;
      kind: RefusalKind;
      /** The path as it was given. */
      path: string;
      /** Why, without the path: `leads outside the workspace through a symbolic link: refused, never read`. */
      why: string;
      /** `path: why`: one line for a person. */
      reason: string;
    };

export type Refused = Extract<PathDecision, { ok: false }>;

/** Resolve `raw` as a path the program may read (or write), or say why not. */
export function resolveInWorkspace(raw: string, options: GuardOptions): PathDecision {
  const refuse = (kind: RefusalKind, why: string): Refused => ({ ok: false, kind, path: raw, why, reason: `${raw}: ${why}` });
  const verb = options.access === 'write' ? 'not written' : 'never read';
  if (raw.trim() === '' || raw.includes('\0')) return refuse('empty', raw.includes('\0') ? 'not a path (a NUL character)' : 'an empty path');
  const root = path.resolve(options.root);
  const realRoot = realOrSelf(root);
  const roots = [realRoot, ...(options.allowedRoots ?? []).map((r) => realOrSelf(path.resolve(r)))];
  const abs = path.resolve(options.base ?? root, raw);
  const named = [root, realRoot, ...(options.allowedRoots ?? []).map((r) => path.resolve(r)), ...roots];
  const namedInside = named.some((r) => within(r, abs));
  if (!namedInside && !options.outsideAsNamed) return refuse('outside', `is outside the workspace: refused, ${verb}`);
  const secrets = options.refuseSecrets !== false;
  const namedRel = within(root, abs) ? rel(root, abs) : within(realRoot, abs) ? rel(realRoot, abs) : abs;
  if (secrets && isSecretPath(namedRel)) return refuse('secret', `is a secret file (by name): refused, ${verb}`);

  const lst = lstatOrUndefined(abs);
  if (!lst) {
    const real = missingReal(abs);
    if (!real) return refuse('missing', `is below a symbolic link to nothing (dangling): refused, ${verb}`);
    if (namedInside && !roots.some((r) => within(r, real))) return refuse('link-outside', `leads outside the workspace through a symbolic link: refused, ${verb}`);
    if (!options.mayBeMissing) return refuse('missing', 'not found');
    return { ok: true, abs, real, rel: within(realRoot, real) ? rel(realRoot, real) : undefined, exists: false };
  }
  if (options.access === 'write' && lst.isSymbolicLink()) return refuse('link', `is a symbolic link: refused, ${verb} (write to the file itself)`);
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return refuse('missing', 'is a symbolic link to nothing (dangling): refused');
    if (code === 'ELOOP') return refuse('unreadable', 'is a loop of symbolic links: refused');
    return refuse('unreadable', `cannot be resolved (${code ?? 'error'}): refused`);
  }
  const home = roots.find((r) => within(r, real));
  if (namedInside && !home) return refuse('link-outside', `leads outside the workspace through a symbolic link: refused, ${verb}`);
  const realRel = home === realRoot ? rel(realRoot, real) : undefined;
  if (secrets && real !== abs && isSecretPath(realRel ?? real)) return refuse('secret', `is a link to a secret file (${realRel ?? path.basename(real)}): refused, ${verb}`);
  let st: HostStats;
  try {
    st = fs.statSync(real);
  } catch (e) {
    return refuse('unreadable', `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const expect = options.expect ?? 'file';
  if (st.isDirectory()) {
    if (expect === 'file') return refuse('folder', `is a folder, not a file: refused, ${verb}`);
  } else if (!st.isFile()) {
    return refuse('special', `is ${specialName(st)}: never opened`);
  } else if (expect === 'folder') {
    return refuse('not-folder', 'is a file, not a folder: refused');
  }
  if (options.access === 'write' && st.isFile() && st.nlink > 1) return refuse('hard-link', `has ${st.nlink} hard links (another name may be outside the workspace): refused, ${verb}`);
  return { ok: true, abs, real, rel: realRel, exists: true, size: st.isFile() ? st.size : undefined };
}

export type Resolved = Extract<PathDecision, { ok: true }>;

/** The same, for callers whose refusal is bad input: an InputError naming the path (`ctxctl: PATH: why`, exit 2). */
export function requireInWorkspace(raw: string, options: GuardOptions, shown = raw): Resolved {
  const d = resolveInWorkspace(raw, options);
  if (!d.ok) throw new InputError(d.why, shown);
  return d;
}

/** True when `p` is `dir` or below it (both absolute). */
export function within(dir: string, p: string): boolean {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..' + path.sep) && r !== '..' && !path.isAbsolute(r));
}

/**
 * True when a task file's text is mostly secrets (a `.env` under another name): at least two of its lines, and more
 * than half of the lines that say anything, hold a secret a redaction rule finds.
 */
export function mostlySecrets(text: string): boolean {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const secret = lines.filter((l) => holdsSecret(l)).length;
  return secret >= 2 && secret * 2 > lines.length;
}

function specialName(st: HostStats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function rel(dir: string, p: string): string {
  return path.relative(dir, p).split(path.sep).join('/');
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function lstatOrUndefined(p: string): HostStats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** A path that does not exist: its nearest existing folder, links resolved, with the rest appended; undefined below a dangling link. */
function missingReal(abs: string): string | undefined {
  let existing = path.dirname(abs);
  while (!lstatOrUndefined(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  try {
    return path.join(fs.realpathSync(existing), path.relative(existing, abs));
  } catch {
    return undefined;
  }
}
