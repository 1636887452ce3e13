import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assemble } from '../../../src/core/chain/assemble';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT, type ChangeReader } from '../../../src/core/task/git';
import { counter, REPO } from '../helpers';

export const REPOS = path.join(REPO, 'test', 'fixtures', 'repos');

/** A step of a fixture's history: the file's earlier text, committed first; the fixture's text is committed after it. */
export interface HistoryStep {
  path: string;
  before: string;
  message: string;
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', '-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@example.com', GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.com', GIT_AUTHOR_DATE: '2026-11-01T10:00:00Z', GIT_COMMITTER_DATE: '2026-11-01T10:00:00Z' },
  });
}

/**
 * A temporary copy of a fixture repository with a real git history: the files as they were (`before`) in a first
 * commit, then each step's change in its own commit; `dirty` files are then changed in the working tree, uncommitted.
 */
export function materialize(name: string, history: HistoryStep[] = [], dirty: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ctx-${name}-`));
  fs.cpSync(path.join(REPOS, name), dir, { recursive: true });
  const final = new Map(history.map((h) => [h.path, fs.readFileSync(path.join(dir, h.path), 'utf8')]));
  for (const h of history) fs.writeFileSync(path.join(dir, h.path), h.before);
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'Initial import']);
  for (const h of history) {
    fs.writeFileSync(path.join(dir, h.path), final.get(h.path)!);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', h.message]);
  }
  for (const [p, text] of Object.entries(dirty)) fs.writeFileSync(path.join(dir, p), text);
  return dir;
}

export function headOf(dir: string): string {
  return git(dir, ['rev-parse', '--short=7', 'HEAD']).trim();
}

export interface Outcome {
  selected: Map<string, string>;
  rejected: Map<string, string>;
  indexed: Map<string, string>;
  warnings: string[];
  tokens: number;
  blocks: ReturnType<typeof assemble>['blocks'];
  manifest: ReturnType<typeof assemble>['manifest'];
}

/** Assemble a task on a workspace and return the manifest's sets, keyed by source. */
export function outcome(root: string, task: string, options: { changes?: ChangeReader | false; cwd?: string } = {}): Outcome {
  const snapshot = loadSnapshot({ root, task, cwd: options.cwd ?? root, changes: options.changes ?? NO_GIT });
  const { manifest, blocks } = assemble(snapshot, { tokenizer: counter, now: () => new Date('2026-11-12T10:00:00Z') });
  const map = (list: { source: string; reason: string }[]) => new Map(list.map((d) => [d.source, d.reason]));
  return {
    selected: map(manifest.selected),
    rejected: map(manifest.rejected),
    indexed: map(manifest.indexed),
    warnings: manifest.warnings.map((w) => `${w.source}: ${w.message}`),
    tokens: manifest.budget.final,
    blocks,
    manifest,
  };
}

/** The documents and decisions of an outcome in each section (builtin, session and mandatory blocks left out). */
export function docSets(o: Outcome): { selected: string[]; rejected: string[]; indexed: string[] } {
  const docs = (m: Map<string, string>) => [...m.keys()].filter((s) => /\.(md|markdown)$/.test(s) && !/(^|\/)AGENTS\.md$/.test(s) && s !== o.manifest.task.source).sort();
  return { selected: docs(o.selected), rejected: docs(o.rejected), indexed: docs(o.indexed) };
}
