import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContextEngine } from '../../../src/core/engine';
import { PROGRESS_EVERY, type Progress } from '../../../src/core/host';
import { diskHostOf } from '../../../src/host/disk';
import { progressLine, progressText } from '../../../src/cli/progress-line';

describe('where a long preview stands (Host#progress, cli/progress-line.ts)', () => {
  let root: string;
  const NOTES = 2 * PROGRESS_EVERY + 100;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-progress-'));
    fs.mkdirSync(path.join(root, 'notes'));
    for (let i = 0; i < NOTES; i++) fs.writeFileSync(path.join(root, 'notes', `n${i}.md`), `# Note ${i}\n\nThe ledger export came up.\n`);
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the engine tells its host every 1 024 files scanned, files read and documents ranked, in that order', () => {
    const steps: Progress[] = [];
    const engine = new ContextEngine({ ...diskHostOf({}), progress: (p) => steps.push(p) }, { root });
    engine.preview({ task: 'Why does the ledger export fail?', changes: false });
    const files = NOTES + 1; // and AGENTS.md
    assert.deepEqual(steps, [
      { step: 'scan', done: 1024 },
      { step: 'scan', done: 2048 },
      { step: 'read', done: 1024, total: files },
      { step: 'read', done: 2048, total: files },
      { step: 'rank', done: 1024, total: NOTES },
      { step: 'rank', done: 2048, total: NOTES },
    ]);
  });

  it('a host without progress is told nothing and gives the same preview', () => {
    const told = new ContextEngine({ ...diskHostOf({}), progress: () => {} }, { root }).preview({ task: 'Why does the ledger export fail?', changes: false });
    const plain = new ContextEngine(diskHostOf({}), { root }).preview({ task: 'Why does the ledger export fail?', changes: false });
    assert.equal(told.assembly.serialized, plain.assembly.serialized);
  });

  it('the status line stays quiet for the first second, redraws at most every 100 ms and is cleared at the end', () => {
    let t = 5000;
    const out: string[] = [];
    const line = progressLine((s) => out.push(s), () => t);
    line.step({ step: 'scan', done: 1024 });
    t += 999;
    line.step({ step: 'scan', done: 2048 });
    assert.deepEqual(out, [], 'nothing in the first second');
    t += 1;
    line.step({ step: 'scan', done: 3072 });
    t += 99;
    line.step({ step: 'scan', done: 4096 });
    t += 1;
    line.step({ step: 'read', done: 40960, total: 100005 });
    line.done();
    line.done();
    assert.deepEqual(out, ['\r\x1b[Kctxctl: scanning the workspace: 3\u202f072 files…', '\r\x1b[Kctxctl: reading files: 40\u202f960 of 100\u202f005…', '\r\x1b[K']);
    const quiet: string[] = [];
    const short = progressLine((s) => quiet.push(s), () => 0);
    short.step({ step: 'rank', done: 1024, total: 2000 });
    short.done();
    assert.deepEqual(quiet, [], 'a run under a second prints nothing, not even the clearing');
    assert.equal(progressText({ step: 'rank', done: 1024, total: 2148 }), 'ctxctl: ranking documents: 1\u202f024 of 2\u202f148…');
  });
});
