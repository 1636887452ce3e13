/**
 * Everything the core asks of the outside world, in one interface: the file system (list, read, stat, write where the
 * core keeps its stores and records), git, the clock, and an optional model-side token counter. Nothing under
 * src/core imports `node:fs` or `node:child_process` (a lint rule keeps it so): the disk host (src/host/disk.ts)
 * serves the CLI and the editor's workers; an editor host may serve unsaved buffers and other folders.
 *
 * One host per process: an entry point (the CLI, a worker, the extension, the unit test runner) installs it with
 * `useHost` before it calls the core; `ContextEngine` installs the host it is given.
 */

/** What the core reads of a stat: the subset of node's `fs.Stats` it uses. */
export interface HostStats {
  readonly size: number;
  readonly mtimeMs: number;
  /** Hard links to the file (the guard refuses a file with more than one). */
  readonly nlink: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** One entry of a folder listing. */
export interface HostDirent {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The file system, synchronous, with node's names and meanings (so a read is bounded or streamed the way the core
 * needs: open, read a range, close). Paths are absolute.
 */
export interface HostFs {
  existsSync(p: string): boolean;
  statSync(p: string): HostStats;
  statSync(p: string, options: { throwIfNoEntry: false }): HostStats | undefined;
  lstatSync(p: string): HostStats;
  lstatSync(p: string, options: { throwIfNoEntry: false }): HostStats | undefined;
  fstatSync(fd: number): HostStats;
  realpathSync(p: string): string;
  readdirSync(dir: string): string[];
  readdirSync(dir: string, options: { withFileTypes: true }): HostDirent[];
  readFileSync(p: string): Buffer;
  readFileSync(p: string, encoding: 'utf8'): string;
  openSync(p: string, flags: 'r'): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  closeSync(fd: number): void;
  accessSync(p: string, mode: number): void;
  writeFileSync(p: string, data: string | Uint8Array): void;
  appendFileSync(p: string, data: string): void;
  mkdirSync(p: string, options: { recursive: true }): unknown;
  renameSync(from: string, to: string): void;
  copyFileSync(from: string, to: string): void;
  utimesSync(p: string, atime: Date, mtime: Date): void;
  rmSync(p: string, options?: { force?: boolean; recursive?: boolean }): void;
  rmdirSync(p: string): void;
}

/** `accessSync` mode: the file can be written (the same value as node's `fs.constants.W_OK` on every platform). */
export const W_OK = 2;

export interface GitRun {
  /** Every argument, `-C <root>` and the `-c` safety settings included: the host adds nothing. */
  args: string[];
  /** The whole environment git runs with (the core removes GIT_* and adds its own). */
  env: Record<string, string | undefined>;
  maxBuffer: number;
  timeoutMs: number;
}

export interface Host {
  readonly fs: HostFs;
  /** Runs git (execFile, never a shell, stdin and stderr closed) and returns its stdout; throws when git fails. */
  git(run: GitRun): string;
  /** The clock. */
  now(): Date;
  /** The process environment the core may read (git's environment is derived from it). */
  env(): Record<string, string | undefined>;
  /** The model's own counter when it has one (vscode.lm): async, so the chain's counter stays the synchronous one. */
  countTokens?(text: string): Promise<number>;
}

let current: Host | undefined;

/** Installs the process's host; returns the one it replaces. */
export function useHost(host: Host): Host | undefined {
  const before = current;
  current = host;
  return before;
}

/** The installed host. Throws a clear error when an entry point called the core before installing one. */
export function host(): Host {
  if (!current) throw new Error('no Host installed: call useHost(diskHost) (src/host/disk.ts) before calling src/core (the unit tests run with --require out/test/unit/host-setup.js)');
  return current;
}

const FS_METHODS = [
  'existsSync', 'statSync', 'lstatSync', 'fstatSync', 'realpathSync', 'readdirSync', 'readFileSync', 'openSync', 'readSync', 'closeSync', 'accessSync',
  'writeFileSync', 'appendFileSync', 'mkdirSync', 'renameSync', 'copyFileSync', 'utimesSync', 'rmSync', 'rmdirSync',
] as const satisfies readonly (keyof HostFs)[];

/** The installed host's file system, looked up at each call (so a module may hold it before a host is installed). */
export const hostFs: HostFs = Object.fromEntries(
  FS_METHODS.map((name) => [name, (...args: unknown[]) => (host().fs[name] as (...a: unknown[]) => unknown)(...args)]),
) as unknown as HostFs;
