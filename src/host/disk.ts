import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useDefaultHost, type Host, type HostWatch } from '../core/host';

/** The environment variable each HTTP provider's key is read from (then CTXCTL_API_KEY for any of them). */
export const KEY_VARS: Readonly<Record<string, string>> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** A provider's key from an environment: its own variable, else CTXCTL_API_KEY; none for a provider without a key. */
export function keyFromEnv(provider: string, env: Record<string, string | undefined>): string | undefined {
  return KEY_VARS[provider] ? env[KEY_VARS[provider]] || env.CTXCTL_API_KEY || undefined : undefined;
}

/** A recursive watch of a folder with node's fs.watch: each event's file as an absolute path (it keeps the process alive until disposed). */
export function watchFolder(root: string, onChange: (abs: string) => void): HostWatch {
  const watcher = fs.watch(root, { recursive: true }, (_event, name) => {
    if (name) onChange(path.join(root, name.toString()));
  });
  // A folder removed while watched (or a watch the system refuses later) ends the watch; nothing is lost but events.
  watcher.on('error', () => watcher.close());
  return { dispose: () => watcher.close() };
}

/**
 * The disk, git on the PATH, the system clock, node's watcher and the keys of an environment (`keys`, default the
 * process's): the host of the CLI, the editor's workers and the unit tests.
 */
export function diskHostOf(keys: Record<string, string | undefined> = process.env): Host {
  return {
    fs,
    git: (run) =>
      execFileSync('git', run.args, {
        encoding: 'utf8',
        maxBuffer: run.maxBuffer,
        timeout: run.timeoutMs,
        stdio: ['ignore', 'pipe', 'ignore'],
        env: run.env,
      }),
    now: () => new Date(),
    env: () => process.env,
    watch: watchFolder,
    secret: async (provider) => keyFromEnv(provider, keys),
  };
}

/** The disk host over the process's environment. */
export const diskHost: Host = diskHostOf();

/** Makes the disk host the default of code that runs outside an engine (an entry point calls this first). */
export function installDiskHost(): Host {
  useDefaultHost(diskHost);
  return diskHost;
}
