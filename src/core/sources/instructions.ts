import picomatch from 'picomatch';
import type { Warning } from '../types';
import { readFrontMatter, valueText } from './documents';
import { firstHeading, stringList } from './frontmatter';
import { globMatcher } from './globs';

/**
 * The instruction files people already keep for coding agents, each with its own semantics, mapped to one of:
 * - mandatory: loaded with the durable rules (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, a Cursor rule
 *   with `alwaysApply: true`, .cursorrules, .clinerules);
 * - conditional: loaded when one of the files the task names matches its globs (Copilot `applyTo`, Cursor `globs`,
 *   Cline `paths`);
 * - disclosed: listed in the index, fetched on demand (a Copilot file without `applyTo`, a Cursor rule with only a
 *   `description` or nothing at all, a Cline workflow).
 * AGENTS.md and CLAUDE.md below the root, and Cursor rules of a nested `.cursor/`, govern only their own folder.
 */

export type InstructionFamily = 'agents_md' | 'claude_md' | 'copilot' | 'cursor' | 'cline';
export type InstructionMode = 'mandatory' | 'conditional' | 'disclosed';

export interface InstructionFile {
  path: string;
  family: InstructionFamily;
  mode: InstructionMode;
  /** The folder whose files it governs: '' for the whole workspace. */
  scope: string;
  /** Conditional files: globs matched against the task's files (relative to `scope`). */
  globs?: string[];
  /** What the file says it is for: the index's summary for a disclosed file. */
  description?: string;
  title: string;
  /** The instructions, front matter removed; '' for an empty file. */
  text: string;
  bodyLine: number;
  /** Why this mode, for the manifest: `alwaysApply: true`, `applyTo: **\/*.ts`, `description only`… */
  rule: string;
}

/** Each family's files, in the order they are tried. */
export const INSTRUCTION_GLOBS: Record<InstructionFamily, string[]> = {
  agents_md: ['**/AGENTS.md'],
  claude_md: ['**/CLAUDE.md', '**/CLAUDE.local.md'],
  copilot: ['.github/copilot-instructions.md', '.github/instructions/**/*.instructions.md'],
  cursor: ['**/.cursor/rules/**/*.{mdc,md}', '.cursorrules'],
  cline: ['.clinerules', '.clinerules/**/*.{md,txt}'],
};
const FAMILIES = (Object.entries(INSTRUCTION_GLOBS) as [InstructionFamily, string[]][]).map(([family, globs]) => [family, globMatcher(globs, { dot: true })] as const);

const FAMILY_ORDER: InstructionFamily[] = FAMILIES.map(([f]) => f);
const MODE_ORDER: InstructionMode[] = ['mandatory', 'conditional', 'disclosed'];

/** The family of an instruction file, from its workspace-relative path; undefined for anything else. */
export function instructionFamily(path: string): InstructionFamily | undefined {
  return FAMILIES.find(([, matches]) => matches(path))?.[0];
}

/** Read one instruction file with its family's semantics. Malformed front matter is a warning; the text still loads. */
export function readInstruction(path: string, text: string, family: InstructionFamily): { file: InstructionFile; warnings: Warning[] } {
  const base = path.replace(/^.*\//, '');
  const withFrontMatter = (family === 'copilot' && base !== 'copilot-instructions.md') || (family === 'cursor' && base !== '.cursorrules') || (family === 'cline' && path !== '.clinerules');
  const fm = withFrontMatter
    ? readFrontMatter(text, path, { quiet: family === 'cursor' })
    : { data: {} as Record<string, unknown>, body: (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n'), bodyLine: 1, warnings: [] };
  const { data, body } = fm;
  const description = valueText(data.description);
  const globsOf = (value: unknown) => (Array.isArray(value) ? stringList(value) : stringList(valueText(value)));
  let mode: InstructionMode = 'mandatory';
  let rule = 'always applies';
  let globs: string[] | undefined;
  let scope = '';

  if (family === 'agents_md' || family === 'claude_md') {
    scope = dirOf(path.replace(/(^|\/)\.claude\/CLAUDE\.md$/, '$1CLAUDE.md'));
    rule = scope ? `applies below ${scope}/` : 'workspace root';
  } else if (family === 'copilot') {
    globs = globsOf(data.applyTo);
    if (base === 'copilot-instructions.md') rule = 'repository-wide instructions';
    else if (!globs) [mode, rule] = ['disclosed', 'no applyTo: attached on request'];
    else [mode, rule] = matchesEverything(globs) ? ['mandatory', `applyTo: ${globs.join(',')}`] : ['conditional', `applyTo: ${globs.join(',')}`];
  } else if (family === 'cursor') {
    scope = path === '.cursorrules' ? '' : dirOf(path.slice(0, path.indexOf('.cursor/rules/') + '.cursor'.length));
    globs = globsOf(data.globs);
    if (path === '.cursorrules') rule = 'legacy .cursorrules';
    else if (data.alwaysApply === true || valueText(data.alwaysApply)?.toLowerCase() === 'true') rule = 'alwaysApply: true';
    else if (globs) [mode, rule] = ['conditional', `globs: ${globs.join(',')}`];
    else if (description) [mode, rule] = ['disclosed', 'agent-requested rule (description only)'];
    else [mode, rule] = ['disclosed', 'manual rule (no alwaysApply, globs or description)'];
  } else if (family === 'cline') {
    globs = globsOf(data.paths);
    if (path.startsWith('.clinerules/workflows/')) [mode, rule] = ['disclosed', 'Cline workflow: run on request'];
    else if (globs) [mode, rule] = matchesEverything(globs) ? ['mandatory', `paths: ${globs.join(',')}`] : ['conditional', `paths: ${globs.join(',')}`];
    else rule = path === '.clinerules' ? '.clinerules file' : '.clinerules folder';
  }
  const file: InstructionFile = {
    path,
    family,
    mode,
    scope,
    ...(mode === 'conditional' ? { globs } : {}),
    ...(description ? { description } : {}),
    title: valueText(data.title) ?? firstHeading(body) ?? base,
    text: body.trim(),
    bodyLine: fm.bodyLine,
    rule,
  };
  return { file, warnings: fm.warnings };
}

/** Whether a file's instructions apply to a task naming these files; the reason says why not. */
export function applicability(file: InstructionFile, taskFiles: string[]): { applies: boolean; reason?: string } {
  const below = file.scope ? taskFiles.filter((f) => f.startsWith(file.scope + '/')).map((f) => f.slice(file.scope.length + 1)) : taskFiles;
  if (file.scope && below.length === 0) return { applies: false, reason: `${label(file)} does not apply: no file of the task lies below ${file.scope}/` };
  if (file.mode !== 'conditional') return { applies: true };
  // A glob without a slash (`*.tsx`) matches a file's name in any folder, as in .gitignore and Cursor.
  const matchers = (file.globs ?? []).map((g) => picomatch(g, { dot: true, basename: !g.includes('/') }));
  if (below.some((f) => matchers.some((m) => m(f)))) return { applies: true };
  return {
    applies: false,
    reason: taskFiles.length === 0 ? `conditional rule (${file.rule}): the task names no files` : `conditional rule (${file.rule}) matches none of the task's files`,
  };
}

/** Root first: shallower scopes before deeper ones, so deeper files come later and win on conflict. */
export function orderInstructions(files: InstructionFile[]): InstructionFile[] {
  const depth = (f: InstructionFile) => (f.scope ? f.scope.split('/').length : 0);
  return [...files].sort(
    (a, b) =>
      depth(a) - depth(b) ||
      MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) ||
      FAMILY_ORDER.indexOf(a.family) - FAMILY_ORDER.indexOf(b.family) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

function label(file: InstructionFile): string {
  return file.path.replace(/^.*\//, '');
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function matchesEverything(globs: string[]): boolean {
  return globs.some((g) => g === '**' || g === '**/*' || g === '*');
}
