import { hostFs as fs } from '../host';
import * as path from 'node:path';
import type { TaskComponent } from '../relevance/components';
import type { TaskSignals } from '../task/analyze';
import { InputError } from '../errors';
import type { Warning } from '../types';
import { mostlySecrets, resolveInWorkspace, within, type Resolved } from './guard';
import { parseFrontMatter, stringList, stringValue } from './frontmatter';

/** The task of one call: a task file (front matter read as data) or literal text. */
export interface Task {
  text: string;
  /** The line of the task file where `text` starts (for the manifest's redaction lines). */
  firstLine?: number;
  /** Workspace-relative path of the task file, or `task` for literal text. */
  source: string;
  component?: string;
  files: string[];
  /** What reading the task file found (front matter that is not YAML): reported, never run. */
  warnings?: Warning[];
  /** What the task says (paths, identifiers, codes, quoted messages, ADR references, words): see task/analyze.ts. */
  signals?: TaskSignals;
  /** The editor's context: the active file and the open editors (workspace-relative). */
  editor?: { activeFile?: string; openFiles: string[] };
  /** The components the task is about: declared, named in its text, or holding a file it names (relevance/components.ts). */
  components?: TaskComponent[];
}

export function displayPath(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel.split(path.sep).join('/');
}

/** How many lines `text.trim()` drops at the start. */
export function leadingLines(text: string): number {
  return (text.slice(0, text.length - text.trimStart().length).match(/\n/g) ?? []).length;
}

export function loadTask(root: string, task: string, cwd = process.cwd()): Task {
  const file = taskFile(root, task, cwd);
  if (file === 'folder' || file === 'special') {
    const what = `names ${file === 'folder' ? 'a folder' : 'a FIFO, socket or device'} in the workspace, not a task file: taken as text, never opened`;
    return { text: task, source: 'task', files: [], warnings: [{ source: 'task', message: `"${task}" ${what}` }] };
  }
  if (!file) {
    // Pasted text that is a whole task file (front matter included) reads exactly as the file would.
    if (!/^\uFEFF?---\r?\n/.test(task)) return { text: task, source: 'task', files: [] };
    return { ...fromTaskFile(task, 'task'), source: 'task' };
  }
  const source = displayPath(root, file.abs);
  const text = fs.readFileSync(file.abs, 'utf8');
  if (mostlySecrets(text)) throw new InputError(`task "${task}" holds mostly secrets (a .env under another name?): refused, never sent`);
  return fromTaskFile(text, source);
}

/**
 * The task as a file, when it names something that exists (else it is literal text), through the workspace guard:
 * a file outside the workspace (through a link, or a path with a slash), or a secret file (by name, or through a link),
 * is refused, never read.
 */
export function taskFile(root: string, task: string, cwd = process.cwd()): Resolved | 'folder' | 'special' | undefined {
  if (task.length >= 4096 || task.includes('\n') || task.includes('\0') || task.trim() === '') return undefined;
  // Only a regular file (through its links) is a task file, as before; a folder, a FIFO or a dangling link is text
  // (said when it is in the workspace: a word that happens to name a folder elsewhere is just text).
  try {
    const st = fs.statSync(path.resolve(cwd, task));
    if (!st.isFile()) return !within(fs.realpathSync(root), fs.realpathSync(path.resolve(cwd, task))) ? undefined : st.isDirectory() ? 'folder' : 'special';
  } catch {
    return undefined;
  }
  const d = resolveInWorkspace(task, { root, base: cwd });
  if (d.ok) return d;
  // One word without a slash that happens to name a file in the current folder, outside the workspace: text, not read.
  if (d.kind === 'outside' && !/[\\/]/.test(task)) return undefined;
  if (d.kind === 'outside') throw new InputError(`task names a file outside the workspace: "${task}"`);
  throw new InputError(`task "${task}" ${d.why}`);
}

function fromTaskFile(text: string, source: string): Task {
  const { data, body, bodyLine, warning } = parseFrontMatter(text, source);
  const heading = stringValue(data.title);
  const prepended = Boolean(heading && !body.includes(heading));
  return {
    text: prepended ? `# ${heading}\n\n${body.trim()}` : body.trim(),
    firstLine: bodyLine + leadingLines(body) - (prepended ? 2 : 0),
    source,
    component: stringValue(data.component),
    files: stringList(data.files) ?? [],
    ...(warning ? { warnings: [{ source, line: warning.line, message: warning.message }] } : {}),
  };
}
