/** The hostile paths of the surfaces red-team suite (surfaces.test.ts), and the workspace that holds them. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fifo, fingerprint } from './hostile';

export const OUTSIDE_CANARY = 'OUTSIDE-CANARY-4417';
export const ENV_SECRET = 'sk-proj-Qw3rTy7uI9oP1aS5dF8gH2jK4lZ6xC0vB3nM7qW9';
export const PASSWD_CANARY = 'root:x:0:0';
export const GIT_CANARY = 'OUTSIDE-COMMIT-CANARY-9921';

/** The eight hostile paths every surface must refuse, by id. `arg` is what the surface is given. */
export const HOSTILE = ['passwd-link', 'outside-link', 'dot-dot', 'absolute', 'env', 'env-link', 'fifo', 'folder'] as const;
export type HostileId = (typeof HOSTILE)[number];

export interface Layout {
  /** The folder holding the workspace and `outside.txt` (so `../outside.txt` leaves the workspace). */
  base: string;
  root: string;
  /** Another temporary folder, outside the workspace. */
  outside: string;
  arg: Record<HostileId, string>;
  /** Fingerprints of everything outside the workspace that a run could touch, to prove nothing was written there. */
  before: string;
}

/**
 * A workspace `base/ws` with every hostile path in it: links to /etc/passwd and to an outside file, `.env` and a link
 * to it, a FIFO and a folder; `base/outside.txt` and `outside/outside.txt` hold the outside canary.
 */
export function hostileLayout(files: Record<string, string> = {}): Layout {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-surfaces-')));
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-surfaces-out-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, 'somedir'), { recursive: true });
  fs.writeFileSync(path.join(root, 'somedir', 'inner.md'), '# Inner\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# Project\n\nThe payment service.\n');
  fs.writeFileSync(path.join(root, '.env'), `OPENAI_API_KEY=${ENV_SECRET}\n`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const canary = `# ${OUTSIDE_CANARY}\nenvelope: { window: 1000, output_reserve: 100, margin: 100 }\n`;
  fs.writeFileSync(path.join(base, 'outside.txt'), canary);
  fs.writeFileSync(path.join(outside, 'outside.txt'), canary);
  fs.symlinkSync('/etc/passwd', path.join(root, 'passwd-link.txt'));
  fs.symlinkSync(path.join(outside, 'outside.txt'), path.join(root, 'outside-link.txt'));
  fs.symlinkSync('.env', path.join(root, 'env-link.txt'));
  fifo(path.join(root, 'pipe.txt'));
  fs.chmodSync(base, 0o755);
  const arg: Record<HostileId, string> = {
    'passwd-link': 'passwd-link.txt',
    'outside-link': 'outside-link.txt',
    'dot-dot': '../outside.txt',
    absolute: path.join(outside, 'outside.txt'),
    env: '.env',
    'env-link': 'env-link.txt',
    fifo: 'pipe.txt',
    folder: 'somedir',
  };
  return { base, root, outside, arg, before: outsideState(base, root, outside) };
}

/** Everything outside the workspace a run could write: the base folder (without the workspace) and the other folder. */
export function outsideState(base: string, root: string, outside: string): string {
  const top = Object.fromEntries(Object.entries(fingerprint(base)).filter(([rel]) => !rel.startsWith(path.basename(root) + '/')));
  return JSON.stringify([top, fingerprint(outside)]);
}

/** The canaries found in a text: outside content, /etc/passwd, the .env value, an outside commit. */
export function leaks(text: string): string[] {
  return [OUTSIDE_CANARY, ENV_SECRET, PASSWD_CANARY, GIT_CANARY].filter((c) => text.includes(c));
}

/** Every file written below `dir` (links not followed), as one text: to check what a run wrote for canaries. */
export function writtenText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile() && fs.statSync(abs).size < 4 * 1024 * 1024) out.push(fs.readFileSync(abs, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

/** A git repository outside any workspace, whose one commit's subject and content are the git canary. */
export function outsideRepo(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-surfaces-repo-')));
  const git = (...args: string[]) => spawnSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  git('init', '-q');
  fs.writeFileSync(path.join(dir, 'secret-plan.md'), `${GIT_CANARY}\n`);
  git('add', '.');
  git('commit', '-q', '-m', GIT_CANARY);
  return dir;
}
