/** Hostile workspaces for the red-team suite: built in temporary folders, run through the real CLI, checked for damage. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../../src/cli/main';

export const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

/** A workspace from a map of relative path → content (string or bytes). */
export function workspace(files: Record<string, string | Buffer> = {}): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-redteam-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  // World-readable, so a run as an unprivileged user (the unreadable-file cases) can walk it.
  fs.chmodSync(root, 0o755);
  return root;
}

export interface Result {
  code: number;
  out: string;
  err: string;
}

/** The CLI in this process (the same `run` the bundle calls). */
export async function ctl(args: string[]): Promise<Result> {
  let out = '';
  let err = '';
  const code = await run(args, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

/**
 * The bundled CLI (`dist/cli.js`) in a child process, as a user runs it. `asNobody` runs it as an unprivileged
 * user when the tests run as root (root reads a chmod 000 file). A hang fails the case through the timeout.
 */
export function spawnCli(args: string[], options: { asNobody?: boolean; cwd?: string } = {}): Result & { timedOut: boolean } {
  const uid = options.asNobody && process.getuid?.() === 0 ? 65534 : undefined;
  const r = spawnSync(process.execPath, [uid === undefined ? CLI : nobodyCli(), ...args], { encoding: 'utf8', timeout: 60_000, cwd: options.cwd ?? os.tmpdir(), uid, gid: uid, env: { PATH: process.env.PATH ?? '' } });
  return { code: r.status ?? -1, out: r.stdout ?? '', err: r.stderr ?? '', timedOut: r.error !== undefined && /ETIMEDOUT/.test(String(r.error)) };
}

let nobodyCopy: string | undefined;
/**
 * The bundle as an unprivileged user can reach it: the checkout may live in a private folder (mode 700, a home folder,
 * `mktemp -d`) that uid 65534 cannot enter, so the cases run as that user get a world-readable copy of dist/ in the
 * temporary folder, made once per test process (the source maps are left out).
 */
function nobodyCli(): string {
  if (!nobodyCopy) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-dist-'));
    fs.cpSync(path.dirname(CLI), path.join(dir, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
    const open = (p: string) => {
      fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) open(path.join(p, e));
    };
    open(dir);
    nobodyCopy = path.join(dir, 'dist', path.basename(CLI));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return nobodyCopy;
}

/** Every file below `root` (links not followed) with the SHA-256 of its bytes: the before/after of a hostile run. */
export function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (e.isDirectory()) walk(abs);
      else if (e.isSymbolicLink()) out[rel] = `link → ${fs.readlinkSync(abs)}`;
      else if (e.isFile()) out[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
      else out[rel] = 'special';
    }
  };
  walk(root);
  return out;
}

/** Make a FIFO (named pipe): opening it for reading blocks until a writer comes, which never happens here. */
export function fifo(abs: string): void {
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  const r = spawnSync('mkfifo', [abs]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

/** The parsed JSON of a `preview --json` run. */
export interface PreviewJson {
  request: unknown;
  manifest: { warnings: { source: string; line?: number; column?: number; message: string }[]; selected: { source: string; kind: string }[]; rejected: { source: string; reason: string }[] };
  trace: string;
}

export function previewJson(r: Result): PreviewJson {
  if (r.code !== 0) throw new Error(`preview failed (${r.code}): ${r.err}`);
  return JSON.parse(r.out) as PreviewJson;
}

/** `source[:line]: message` for each warning, the form a person reads. */
export function warningLines(p: PreviewJson): string[] {
  return p.manifest.warnings.map((w) => `${w.source}${w.line !== undefined ? `:${w.line}` : ''}: ${w.message}`);
}
