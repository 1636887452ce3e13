/**
 * Everything the core asks of the outside world, in one interface: the file system (list, read, stat, write where the
 * core keeps its stores and records), git, the clock, a folder's watch, the providers' keys, and an optional
 * model-side token counter. Nothing under
 * src/core imports `node:fs` or `node:child_process` (a lint rule keeps it so): the disk host (src/host/disk.ts)
 * serves the CLI and the editor's workers; an editor host may serve unsaved buffers and other folders.
 *
 * The host is passed down, not installed: `new ContextEngine(host, folder)` takes it, and every operation of the
 * engine runs the chain inside `withHost(host, …)`, so the chain (down to the deepest read) reaches the engine's
 * host, and two engines with different hosts work side by side in one process, across awaits too (the scope is an
 * AsyncLocalStorage, which follows the engine's async operations and nothing else). Code called outside any engine
 * (a leaf a unit test drives directly, an eval script, the CLI's own file writes) reaches the process's default host,
 * which an entry point sets with `useDefaultHost`; the engine never sets it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

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

/** A watch the host keeps until it is disposed. */
export interface HostWatch {
  dispose(): void;
}

export interface Host {
  /** List (readdirSync), read (readFileSync, or a range: openSync/readSync), stat (statSync, lstatSync, realpathSync). */
  readonly fs: HostFs;
  /** Git, which the git changes of the task come from: runs git (execFile, never a shell, stdin and stderr closed) and returns its stdout; throws when git fails. */
  git(run: GitRun): string;
  /** The clock. */
  now(): Date;
  /** The process environment the core may read (git's environment is derived from it). */
  env(): Record<string, string | undefined>;
  /**
   * Watches a folder: `onChange` gets the absolute path of each file created, changed or deleted under `root` (the
   * editor's watcher calls for a new assembly with it). Events may come in bursts; the caller decides what to redo.
   */
  watch(root: string, onChange: (abs: string) => void): HostWatch;
  /**
   * A provider's API key (`openai`, `anthropic`), where this host keeps keys: the environment for the disk host,
   * the editor's SecretStorage for the editor host. Never written, logged or sent anywhere but to that provider.
   */
  secret(provider: string): Promise<string | undefined>;
  /**
   * The target model's own count of a text, when it has one (a vscode.lm model): async, so the chain's counter stays
   * the synchronous one. Absent: the chain's counter is the only one.
   */
  countTokens?(text: string): Promise<number>;
  /**
   * Where a long step stands (a scan, the documents read, the ranking), called every PROGRESS_EVERY items: the CLI
   * shows it on a terminal. Absent: nobody is told.
   */
  progress?(step: Progress): void;
}

/** One report of a long step: how many of its items are done, of how many when that is known. */
export interface Progress {
  step: 'scan' | 'read' | 'rank';
  done: number;
  total?: number;
}

/** A step reports once per this many items (a power of two: `(n & (PROGRESS_EVERY - 1)) === 0`). */
export const PROGRESS_EVERY = 1024;

const scoped = new AsyncLocalStorage<Host>();
let fallback: Host | undefined;

/** Runs `fn` with `host` as the host of every core call it makes, synchronous or after an await. */
export function withHost<T>(host: Host, fn: () => T): T {
  return scoped.run(host, fn);
}

/** Sets the host of code that runs outside any engine (an entry point's own calls); returns the one it replaces. */
export function useDefaultHost(host: Host | undefined): Host | undefined {
  const before = fallback;
  fallback = host;
  return before;
}

/** The host of the current call: the engine's (withHost), else the default. Throws a clear error when there is neither. */
export function host(): Host {
  const h = current();
  if (!h) throw new Error('no Host: call src/core through a ContextEngine (new ContextEngine(host, folder)), or set a default with useDefaultHost(diskHost) (src/host/disk.ts) first (the unit tests run with --require out/test/unit/host-setup.js)');
  return h;
}

function current(): Host | undefined {
  return scoped.getStore() ?? fallback;
}

/**
 * Count one long step's items, telling the current host every PROGRESS_EVERY of them (`progress`): call the result
 * once per item. Undefined when there is no host or it has no `progress`: nobody is told.
 */
export function progressCounter(step: Progress['step'], total?: number): (() => void) | undefined {
  const h = current();
  if (!h?.progress) return undefined;
  let done = 0;
  return () => {
    if ((++done & (PROGRESS_EVERY - 1)) === 0) h.progress!({ step, done, ...(total === undefined ? {} : { total }) });
  };
}

const FS_METHODS = [
  'existsSync', 'statSync', 'lstatSync', 'fstatSync', 'realpathSync', 'readdirSync', 'readFileSync', 'openSync', 'readSync', 'closeSync', 'accessSync',
  'writeFileSync', 'appendFileSync', 'mkdirSync', 'renameSync', 'copyFileSync', 'utimesSync', 'rmSync', 'rmdirSync',
] as const satisfies readonly (keyof HostFs)[];

/** The current host's file system (host()), looked up at each call: a module holds it once, each call reaches the engine's host. */
export const hostFs: HostFs = Object.fromEntries(
  FS_METHODS.map((name) => [name, (...args: unknown[]) => (host().fs[name] as (...a: unknown[]) => unknown)(...args)]),
) as unknown as HostFs;
