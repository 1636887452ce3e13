import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineFolder } from '../core/engine';
import { InputError } from '../core/errors';
import { codeWorkspaceFolders, uniqueFolders } from '../core/sources/code-workspace';

/** A `.code-workspace` file is a few KiB: one larger than this is refused, not read. */
export const CODE_WORKSPACE_MAX_BYTES = 1024 * 1024;

/**
 * The folders `--workspace` names: each value a folder, or a `.code-workspace` file whose folders are read (relative to
 * the file). Given once per folder, or mixed. Every folder must exist; names are made unique.
 */
export function workspaceFolders(values: string[], cwd = process.cwd()): Required<Pick<EngineFolder, 'root' | 'name'>>[] {
  const folders: EngineFolder[] = [];
  for (const value of values) {
    const abs = path.resolve(cwd, value);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) throw new InputError('workspace folder not found', value);
    if (st.isDirectory()) folders.push({ root: abs });
    else if (st.isFile() && value.endsWith('.code-workspace')) {
      if (st.size > CODE_WORKSPACE_MAX_BYTES) throw new InputError(`a .code-workspace file of ${st.size} bytes, above ${CODE_WORKSPACE_MAX_BYTES}: not read`, value);
      for (const f of codeWorkspaceFolders(value, fs.readFileSync(abs, 'utf8'))) {
        const fst = fs.statSync(f.root, { throwIfNoEntry: false });
        if (!fst?.isDirectory()) throw new InputError(`folder "${f.name}" (${f.root}) not found`, value);
        folders.push(f);
      }
    } else throw new InputError('--workspace must be a folder or a .code-workspace file', value);
  }
  return uniqueFolders(folders);
}
