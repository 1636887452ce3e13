import * as path from 'node:path';
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { EngineFolder } from '../engine';
import { InputError } from '../errors';

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The folders of a VS Code `.code-workspace` file (JSON with comments and trailing commas): each `{ "path", "name"? }`
 * entry, its path relative to the file's folder, its name the entry's or the folder's base name. Bad input (not
 * JSONC, no `folders` list, an entry without a path, a remote `uri` folder) is an InputError with the file and line.
 */
export function codeWorkspaceFolders(file: string, text: string): EngineFolder[] {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) throw new InputError(`not a valid .code-workspace file: ${printParseErrorCode(errors[0].error)}`, file, lineAt(text, errors[0].offset));
  const list = tree && findNodeAtLocation(tree, ['folders']);
  if (!list || list.type !== 'array') throw new InputError('a .code-workspace file needs a "folders" list', file, list ? lineAt(text, list.offset) : 1);
  if (!list.children?.length) throw new InputError('the "folders" list is empty: no folder to read', file, lineAt(text, list.offset));
  const base = path.dirname(path.resolve(file));
  return list.children.map((entry) => {
    const at = lineAt(text, entry.offset);
    const field = (key: string) => findNodeAtLocation(entry, [key]);
    if (entry.type !== 'object') throw new InputError('a folder entry must be an object with a "path"', file, at);
    if (field('uri') && !field('path')) throw new InputError('a folder given by "uri" (a remote folder) is not supported: give a "path"', file, at);
    const p = field('path');
    if (!p || p.type !== 'string' || String(p.value).trim() === '') throw new InputError('a folder entry needs a "path" string', file, at);
    const name = field('name');
    if (name && name.type !== 'string') throw new InputError('a folder\'s "name" must be a string', file, lineAt(text, name.offset));
    const root = path.resolve(base, String(p.value));
    return { root, name: name ? String(name.value) : path.basename(root) };
  });
}

/** The folders with unique names: a second folder of the same name is shown as `name (2)`; a root given twice counts once. */
export function uniqueFolders(folders: EngineFolder[]): Required<Pick<EngineFolder, 'root' | 'name'>>[] {
  const out: Required<Pick<EngineFolder, 'root' | 'name'>>[] = [];
  const names = new Set<string>();
  for (const f of folders) {
    if (out.some((o) => o.root === f.root)) continue;
    const base = f.name ?? path.basename(f.root);
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
    names.add(name);
    out.push({ root: f.root, name });
  }
  return out;
}
