import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { replaceWritten, WRITTEN_LIST } from '../../../src/core/report/record';
import { ctl, fifo, fingerprint, previewJson, spawnCli, warningLines, workspace } from './hostile';

const base = () => workspace({ 'AGENTS.md': '# Rules\n', 'README.md': '# Project\n' });

describe('red team: CLI usage', () => {
  it('--session given a folder: exit 2, one line naming it', async () => {
    const root = base();
    fs.mkdirSync(path.join(root, 'sessions'));
    for (const cmd of ['preview', 'send']) {
      const r = await ctl([cmd, '--workspace', root, '--task', 'x', '--session', path.join(root, 'sessions')]);
      assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'sessions')}: is a folder, not a session file (JSON lines)\n`], cmd);
    }
  });

  it('.context/session.jsonl as a folder: exit 2, one line', async () => {
    const root = workspace({ 'AGENTS.md': '# Rules\n', '.context/session.jsonl/x': '' });
    const r = await ctl(['preview', '--workspace', root, '--task', 'x']);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/session.jsonl: is a folder, not a session file (JSON lines)\n']);
  });

  it('.context/session.jsonl as a FIFO is skipped with a warning, never opened', () => {
    const root = base();
    fifo(path.join(root, '.context', 'session.jsonl'));
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json']);
    assert.equal(r.timedOut, false);
    assert.deepEqual(warningLines(previewJson(r)), ['.context/session.jsonl: skipped: a FIFO (named pipe), never opened; no session replayed']);
  });

  it('.context/session.summaries.jsonl as a FIFO is skipped with a warning, never opened', () => {
    const root = base();
    fifo(path.join(root, '.context', 'session.summaries.jsonl'));
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json']);
    assert.equal(r.timedOut, false);
    assert.deepEqual(warningLines(previewJson(r)), ['.context/session.summaries.jsonl: skipped: not a regular file (a FIFO or device), never opened; no stored summary used']);
  });

  it('session compact never writes into a FIFO (or a link) named session.summaries.jsonl: exit 2, one line', () => {
    const root = base();
    fs.mkdirSync(path.join(root, '.context'), { recursive: true });
    const events = Array.from({ length: 10 }, (_, i) => [`{"id":"u${i}","type":"user","text":"Step ${i}: fix the checkout"}`, `{"id":"a${i}","type":"assistant","text":"Done with step ${i}."}`]).flat();
    fs.writeFileSync(path.join(root, '.context', 'session.jsonl'), events.join('\n') + '\n');
    fifo(path.join(root, '.context', 'session.summaries.jsonl'));
    const r = spawnCli(['session', 'compact', '--workspace', root]);
    assert.equal(r.timedOut, false);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, '.context', 'session.summaries.jsonl')}: is not a regular file: the summary was not stored\n`]);
  });

  it('--task naming a FIFO is never opened: it is taken as literal text', () => {
    const root = base();
    fifo(path.join(root, 'task.md'));
    const r = spawnCli(['preview', '--workspace', root, '--task', path.join(root, 'task.md'), '--json']);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 0, r.err);
  });

  it('--out below a file: exit 2, one line; the file is untouched', async () => {
    const root = base();
    const r = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'README.md', 'out')]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'README.md', 'out')}: --out: is below a file (${path.join(root, 'README.md')}), not a folder\n`]);
    assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# Project\n');
  });

  it('--out naming an existing file: exit 2, the file is not overwritten', async () => {
    const root = base();
    const r = await ctl(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'README.md')]);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'README.md')}: --out: is a file, not a folder\n`]);
    assert.equal(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), '# Project\n');
  });

  it('--out in a folder the user cannot write: exit 2, one line', () => {
    const root = base();
    fs.mkdirSync(path.join(root, 'locked'), { mode: 0o555 });
    fs.chmodSync(path.join(root, 'locked'), 0o555);
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--out', path.join(root, 'locked', 'out')], { asNobody: true });
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'locked', 'out')}: --out: cannot write here (EACCES: permission denied)\n`]);
  });

  it('--out /proc/x is refused at once (a kernel file system), never written or waited on', () => {
    const r = spawnCli(['preview', '--workspace', base(), '--task', 'x', '--out', '/proc/x']);
    assert.equal(r.timedOut, false);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: /proc/x: --out: /proc is a special file system, not a folder for records\n']);
  });

  it('--encoding r50k_base (not supported): exit 2, one line naming the known encodings', async () => {
    for (const cmd of ['preview', 'send']) {
      const r = await ctl([cmd, '--workspace', base(), '--task', 'x', '--encoding', 'r50k_base']);
      assert.deepEqual([r.code, r.err], [2, 'ctxctl: Unknown encoding "r50k_base". Known encodings: o200k_base, cl100k_base.\n'], cmd);
    }
  });

  it('.context that is a file during send: exit 2, one line; the file is untouched', async () => {
    const root = base();
    fs.writeFileSync(path.join(root, '.context'), 'not a folder\n');
    const r = await ctl(['send', '--workspace', root, '--task', 'x']);
    assert.deepEqual([r.code, r.err], [2, 'ctxctl: .context/offload: the offload store is below a file (.context), not a folder: refused\n']);
    assert.equal(fs.readFileSync(path.join(root, '.context'), 'utf8'), 'not a folder\n');
  });

  it('send --out DIR never deletes an existing DIR/steps/ it did not write', async () => {
    const root = base();
    const out = path.join(root, 'record');
    fs.mkdirSync(path.join(out, 'steps', '07'), { recursive: true });
    fs.writeFileSync(path.join(out, 'steps', 'notes.txt'), 'mine');
    fs.writeFileSync(path.join(out, 'steps', '07', 'request.json'), '{"mine": true}');
    for (let run = 0; run < 2; run++) {
      const r = await ctl(['send', '--workspace', root, '--task', 'x', '--out', out]);
      assert.equal(r.code, 0, r.err);
    }
    assert.equal(fs.readFileSync(path.join(out, 'steps', 'notes.txt'), 'utf8'), 'mine');
    assert.equal(fs.readFileSync(path.join(out, 'steps', '07', 'request.json'), 'utf8'), '{"mine": true}');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, WRITTEN_LIST), 'utf8')), ['request.json', 'manifest.json', 'trace.txt', 'steps/01/request.json', 'steps/01/manifest.json']);
  });

  it('a later send removes only the steps its previous run listed; files beside them stay', () => {
    const out = path.join(base(), 'record');
    for (const f of ['steps/01/request.json', 'steps/02/request.json', 'steps/02/mine.txt', 'steps/03/request.json']) {
      fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
      fs.writeFileSync(path.join(out, f), f);
    }
    fs.writeFileSync(path.join(out, WRITTEN_LIST), JSON.stringify(['steps/01/request.json', 'steps/02/request.json', 'steps/03/request.json', '../../README.md']));
    const removed = replaceWritten(out, ['steps/01/request.json']);
    assert.deepEqual(removed, ['steps/02/request.json', 'steps/03/request.json']);
    assert.deepEqual(fs.readdirSync(path.join(out, 'steps')).sort(), ['01', '02']);
    assert.equal(fs.readFileSync(path.join(out, 'steps/02/mine.txt'), 'utf8'), 'steps/02/mine.txt');
    assert.equal(fs.readFileSync(path.join(path.dirname(path.dirname(out)), path.basename(path.dirname(out)), 'README.md'), 'utf8'), '# Project\n');
  });

  it('--workspace naming a file: exit 2, one line', async () => {
    const root = base();
    const r = await ctl(['preview', '--workspace', path.join(root, 'README.md'), '--task', 'x']);
    assert.deepEqual([r.code, r.err], [2, `ctxctl: ${path.join(root, 'README.md')}: workspace folder not found\n`]);
  });

  it('no bad input in this suite prints a stack trace', async () => {
    const root = base();
    const before = fingerprint(root);
    for (const args of [['preview', '--workspace', root, '--task', 'x', '--policy', root], ['inspect', path.join(root, 'nope.log'), '--head', '3'], ['offload', 'clear', '--dir', root]]) {
      const r = await ctl(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.err.split('\n').filter(Boolean).length, 1, r.err);
      assert.equal(/\n\s+at /.test(r.err), false);
    }
    assert.deepEqual(fingerprint(root), before);
  });
});
