import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fileLines } from '../../../src/core/sources/scan';
import { ctl, fifo, fingerprint, previewJson, spawnCli, warningLines, workspace } from './hostile';

const RULES = '# Rules\n\n- Never push to main on Fridays.\n';
const sent = (p: { request: unknown }, text: string) => JSON.stringify(p.request).includes(JSON.stringify(text).slice(1, -1));

describe('red team: file system', () => {
  it('AGENTS.md as a symbolic link inside the workspace sends its rules, under its own name', async () => {
    const root = workspace({ 'docs/agent-rules.md': RULES });
    fs.symlinkSync('docs/agent-rules.md', path.join(root, 'AGENTS.md'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.ok(sent(p, '- Never push to main on Fridays.'));
    assert.ok(p.manifest.selected.some((s) => s.source === 'AGENTS.md' && s.kind === 'agents_md'), JSON.stringify(p.manifest.selected));
    assert.deepEqual(warningLines(p), []);
  });

  it('CLAUDE.md as a symbolic link to a file in a linked folder inside the workspace sends its rules', async () => {
    const root = workspace({ 'shared/claude.md': RULES });
    fs.symlinkSync('shared', path.join(root, 'conventions'));
    fs.symlinkSync('conventions/claude.md', path.join(root, 'CLAUDE.md'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.ok(p.manifest.selected.some((s) => s.source === 'CLAUDE.md' && s.kind === 'agents_md'), JSON.stringify(p.manifest.selected));
    assert.ok(sent(p, '- Never push to main on Fridays.'));
  });

  it('a link that leads outside the workspace is refused with a warning; the outside file is never read', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-outside-'));
    fs.writeFileSync(path.join(outside, 'secret-notes.md'), '# Outside\n\nOUTSIDE-CANARY-7731\n');
    const root = workspace({ 'AGENTS.md': RULES });
    fs.symlinkSync(path.join(outside, 'secret-notes.md'), path.join(root, 'notes.md'));
    fs.symlinkSync(outside, path.join(root, 'vendor-docs'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'Read OUTSIDE notes', '--json']));
    assert.deepEqual(warningLines(p), ['notes.md: symbolic link leads outside the workspace: not followed', 'vendor-docs: symbolic link leads outside the workspace: not followed']);
    assert.equal(JSON.stringify(p).includes('OUTSIDE-CANARY-7731'), false);
  });

  it('a symbolic link loop (a folder linking to its parent) is scanned once, with a warning, and the call completes', async () => {
    const root = workspace({ 'AGENTS.md': RULES, 'docs/a.md': '# A\n' });
    fs.symlinkSync('..', path.join(root, 'docs', 'up'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), ['docs/up: symbolic link to a folder already scanned (a loop or a second link): not read again']);
  });

  it('a self-referencing link (ELOOP) is one warning, never an abort', async () => {
    const root = workspace({ 'AGENTS.md': RULES });
    fs.symlinkSync('self.md', path.join(root, 'self.md'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), ['self.md: cannot read: ELOOP: too many symbolic links encountered']);
  });

  it('a log with one NUL byte is listed in the manifest as skipped (binary), not silently lost; the file is untouched', async () => {
    const root = workspace({ 'AGENTS.md': RULES, 'logs/app.log': Buffer.concat([Buffer.from('ERROR payment failed\n'), Buffer.from([0]), Buffer.from('tail\n')]) });
    const before = fingerprint(root);
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'Why did payment fail?', '--json']));
    assert.deepEqual(warningLines(p), ['logs/app.log: skipped: binary (a NUL byte in the first 8 KiB); not in this request']);
    assert.deepEqual(fingerprint(root), before);
  });

  it('an image among the files is skipped without a warning: only files the chain would read are reported', async () => {
    const root = workspace({ 'AGENTS.md': RULES, 'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), []);
  });

  it('an unreadable (chmod 000) log never aborts the command: it is listed with its reason and the rules still go', () => {
    const root = workspace({ 'AGENTS.md': RULES, 'logs/app.log': 'ERROR one\n', 'docs/locked.md': '# Locked\n' });
    fs.chmodSync(path.join(root, 'logs'), 0o755);
    fs.chmodSync(path.join(root, 'docs'), 0o755);
    for (const f of ['AGENTS.md']) fs.chmodSync(path.join(root, f), 0o644);
    fs.chmodSync(path.join(root, 'logs', 'app.log'), 0o000);
    fs.chmodSync(path.join(root, 'docs', 'locked.md'), 0o000);
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json'], { asNobody: true });
    const p = previewJson(r);
    assert.deepEqual(warningLines(p), ['docs/locked.md: skipped: unreadable (EACCES: permission denied); not in this request', 'logs/app.log: skipped: unreadable (EACCES: permission denied); not in this request']);
    assert.ok(sent(p, '- Never push to main on Fridays.'));
  });

  it('a FIFO named .gitignore is never opened (it would block): a warning, and the call completes', () => {
    const root = workspace({ 'AGENTS.md': RULES });
    fifo(path.join(root, '.gitignore'));
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json']);
    assert.equal(r.timedOut, false);
    assert.deepEqual(warningLines(previewJson(r)), ['.gitignore: skipped: a FIFO (named pipe), not read']);
  });

  it('a FIFO named like a log, and one named like a document, are skipped and reported, never opened', () => {
    const root = workspace({ 'AGENTS.md': RULES });
    fifo(path.join(root, 'logs', 'app.log'));
    fifo(path.join(root, 'docs', 'guide.md'));
    const r = spawnCli(['preview', '--workspace', root, '--task', 'x', '--json']);
    assert.equal(r.timedOut, false);
    assert.deepEqual(warningLines(previewJson(r)), ['docs/guide.md: skipped: a FIFO (named pipe): never opened; not in this request', 'logs/app.log: skipped: a FIFO (named pipe): never opened; not in this request']);
  });

  it('a .gitignore that links outside the workspace is not read: a warning, and the rest of the scan goes on', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-outside-'));
    fs.writeFileSync(path.join(outside, 'ignore'), '*\n');
    const root = workspace({ 'AGENTS.md': RULES });
    fs.symlinkSync(path.join(outside, 'ignore'), path.join(root, '.gitignore'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), ['.gitignore: symbolic link leads outside the workspace: not followed']);
    assert.ok(sent(p, '- Never push to main on Fridays.'), 'the outside "*" did not hide the rules');
  });

  it('a device node linked into the workspace (/dev/zero) is refused as outside, never read', async () => {
    const root = workspace({ 'AGENTS.md': RULES });
    fs.symlinkSync('/dev/zero', path.join(root, 'zero.log'));
    const p = previewJson(await ctl(['preview', '--workspace', root, '--task', 'x', '--json']));
    assert.deepEqual(warningLines(p), ['zero.log: symbolic link leads outside the workspace: not followed']);
  });

  it('the line reader handles a 50 MB single line in one pass with bounded memory, clipping it visibly', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-line-'));
    const file = path.join(dir, 'one-line.log');
    const fd = fs.openSync(file, 'w');
    const block = Buffer.alloc(1 << 20, 'a');
    fs.writeSync(fd, 'START');
    for (let i = 0; i < 50; i++) fs.writeSync(fd, block);
    fs.writeSync(fd, 'END\nsecond line\n');
    fs.closeSync(fd);
    const lines = [...fileLines(file)];
    assert.equal(lines.length, 2);
    assert.equal(lines[1], 'second line');
    const clipped = 50 * (1 << 20) + 8 - (1 << 20);
    assert.ok(lines[0].startsWith('STARTaaa'));
    assert.ok(lines[0].endsWith('aaaEND'));
    assert.match(lines[0], new RegExp(` …\\[${clipped} chars clipped\\]… `));
    assert.equal(lines[0].length, (1 << 20) + ` …[${clipped} chars clipped]… `.length);
  });

  it('a 16 MB single-line log goes through preview (trim, count) without a stack overflow, clipped and reported', () => {
    const root = workspace({ 'AGENTS.md': RULES });
    fs.mkdirSync(path.join(root, 'logs'));
    fs.writeFileSync(path.join(root, 'logs', 'huge.log'), 'ERROR ' + 'x'.repeat(16 * 1024 * 1024) + '\n');
    const r = spawnCli(['preview', '--workspace', root, '--task', 'Why the ERROR?', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err.includes('    at '), false);
    assert.ok(JSON.stringify(previewJson(r).request).includes('chars clipped'));
  });
});
