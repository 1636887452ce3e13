import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { useDefaultHost, type Host } from '../core/host';

/** The disk, git on the PATH and the system clock: the host of the CLI, the editor's workers and the unit tests. */
export const diskHost: Host = {
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
};

/** Makes the disk host the default of code that runs outside an engine (an entry point calls this first). */
export function installDiskHost(): Host {
  useDefaultHost(diskHost);
  return diskHost;
}
