import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TaskComponent } from '../relevance/components';
import type { TaskSignals } from '../task/analyze';
import type { Warning } from '../types';
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
  const candidate = path.resolve(cwd, task);
  let isFile = false;
  try {
    isFile = task.length < 4096 && fs.statSync(candidate).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) {
    // Pasted text that is a whole task file (front matter included) reads exactly as the file would.
    if (!/^\uFEFF?---\r?\n/.test(task)) return { text: task, source: 'task', files: [] };
    return { ...fromTaskFile(task, 'task'), source: 'task' };
  }
  const source = displayPath(root, candidate);
  return fromTaskFile(fs.readFileSync(candidate, 'utf8'), source);
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
