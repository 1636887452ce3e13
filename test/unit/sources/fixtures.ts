import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSnapshot, type Snapshot } from '../../../src/core/sources/snapshot';
import { REPO } from '../helpers';

/** The fixtures of this suite: one small workspace per format (test/fixtures/sources/<name>). */
export const FIXTURES = path.join(REPO, 'test', 'fixtures', 'sources');

export function fixture(name: string, task = ''): Snapshot {
  const root = path.join(FIXTURES, name);
  return loadSnapshot({ root, task: task ? path.join(root, task) : '' });
}

/** One line per decision: file name, id, effective status, superseded by, supersedes. */
export function lifecycleTable(snapshot: Snapshot): string[] {
  return snapshot.documents
    .filter((d) => d.decision)
    .map((d) => {
      const m = d.decision!;
      return [d.path.replace(/^.*\//, ''), m.id, m.status, `by=${m.supersededBy.join(',')}`, `of=${m.supersedes.join(',')}`].join(' | ');
    });
}

export function raw(name: string, rel: string): string {
  return fs.readFileSync(path.join(FIXTURES, name, rel), 'utf8');
}

const created: string[] = [];
process.on('exit', () => created.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A throw-away workspace written from a map of relative paths to contents; removed when the test process exits. */
export function tempWorkspace(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-sources-'));
  created.push(root);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}
