import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../core/errors';
import { offloadLocation } from '../core/offload/location';
import { clearOffloadStore, foreignFiles, listStore } from '../core/offload/store';
import { FolderEngine } from '../core/folder-engine';
import { diskHost } from '../host/disk';

/** `ctxctl offload clear|list`: the offload store of a workspace (policy offload.dir, default .context/offload/). */

export const OFFLOAD_USAGE = 'ctxctl offload clear|list --workspace DIR [--policy FILE] [--dir DIR]   (the offload store)';

export function offloadCommand(argv: string[], stdout: (s: string) => void): number {
  const [action, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, strict: true, allowPositionals: false, options: { workspace: { type: 'string' }, policy: { type: 'string' }, dir: { type: 'string' } } });
  } catch (e) {
    throw new InputError(`offload: ${(e as Error).message} (usage: ${OFFLOAD_USAGE})`);
  }
  const v = parsed.values;
  if (action !== 'clear' && action !== 'list') throw new InputError(`offload: expected "clear" or "list", got "${action ?? ''}" (usage: ${OFFLOAD_USAGE})`);
  let dir: string;
  if (typeof v.dir === 'string') dir = path.resolve(v.dir);
  else {
    if (typeof v.workspace !== 'string') throw new InputError(`offload: --workspace DIR (or --dir DIR) is required (usage: ${OFFLOAD_USAGE})`);
    const root = path.resolve(v.workspace);
    dir = offloadLocation(root, new FolderEngine(diskHost, root).policy(v.policy));
  }
  if (action === 'list') {
    const files = listStore(dir);
    const total = files.reduce((n, f) => n + f.bytes, 0);
    const foreign = foreignFiles(dir);
    const note = foreign.length ? [`${foreign.length} other file${foreign.length === 1 ? '' : 's'} not written by Context Control (never removed): ${foreign.join(', ')}`] : [];
    stdout([...files.map((f) => `${String(f.bytes).padStart(12)}  ${new Date(f.mtimeMs).toISOString()}  ${f.name}`), `${files.length} files, ${total} bytes in ${dir}`, ...note].join('\n') + '\n');
    return 0;
  }
  const cleared = clearOffloadStore(dir);
  stdout(`Removed ${cleared.removed.length} files (${cleared.freedBytes} bytes) from ${dir}\n`);
  return 0;
}
