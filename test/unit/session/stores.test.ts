import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { InputError } from '../../../src/core/errors';
import { compactSession, editSummary } from '../../../src/core/session/compaction';
import { appendSessionEvents, readSessionFile } from '../../../src/core/session/file';
import { sessionWorkspace } from '../../../src/core/session/maintenance';
import { EDITOR_STORE_NOTE, editorSessionStore, workspaceStore, type SessionStore } from '../../../src/core/session/store';
import { undoRecord } from '../../../src/core/session/summary-store';
import { loadPolicy, loadSnapshot } from '../../../src/core/sources/snapshot';
import { EXAMPLE } from '../helpers';
import { faithfulSummary, SESSION_SOURCE } from './fixtures';
import { ContextEngine } from '../../../src/core/engine';
import { diskHost } from '../../../src/host/disk';

const NOW = () => new Date('2026-11-12T10:20:00Z');
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const made: string[] = [];
after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A copy of the example workspace (small log) and an empty extension storage folder. */
function workspace(): { root: string; storage: string } {
  const root = tmp('ctxctl-stores-ws-');
  const storage = path.join(tmp('ctxctl-stores-storage-'), 'ext');
  made.push(root, path.dirname(storage));
  fs.cpSync(EXAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== 'application.log' });
  fs.writeFileSync(path.join(root, 'application.log'), '2026-11-12T08:03:41.205Z ERROR 400 BAD_REQUEST POST /v1/payments: paymentMethod is required\n');
  return { root, storage };
}

const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
const exchange = [{ id: 'u9', type: 'user' as const, text: 'Is the fix in?' }, { id: 'a9', type: 'assistant' as const, text: 'The fix is in PaymentService.' }];

/** Compact (extractive), edit and undo through the same functions as the editor's commands. */
function compactEditUndo(root: string, store: SessionStore): string[] {
  const policy = loadPolicy(root);
  const first = sessionWorkspace(new ContextEngine(diskHost, root), policy, store);
  const compacted = compactSession(first.input, NOW()).record;
  store.appendSummary(compacted);
  const second = sessionWorkspace(new ContextEngine(diskHost, root), policy, store);
  store.appendSummary(editSummary(second.input, { ...faithfulSummary(), next_step: ['Read ADR-012 before writing the fix.'] }, NOW(), second.storeLabel));
  const third = sessionWorkspace(new ContextEngine(diskHost, root), policy, store);
  store.appendSummary(undoRecord(third.input.records, NOW(), third.storeLabel));
  return fs.readFileSync(store.summariesFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).action);
}

describe('session stores: which file the editor and ctxctl replay', () => {
  it('the workspace store is .context/session.jsonl, what ctxctl reads; a --session file is named as such', () => {
    const { root } = workspace();
    const ws = workspaceStore(root);
    assert.deepEqual(ws.ref(), { kind: 'workspace', path: SESSION_SOURCE });
    assert.equal(ws.snapshotFile(), undefined);
    assert.equal(ws.summariesFile, path.join(root, '.context', 'session.summaries.jsonl'));
    const other = path.join(root, 'other.jsonl');
    assert.deepEqual(workspaceStore(root, other).ref(), { kind: 'file', path: 'other.jsonl' });
    assert.deepEqual(editorSessionStore(root, '/nowhere', true).ref(), { kind: 'workspace', path: SESSION_SOURCE }, 'a trusted editor uses the workspace store');
  });

  it('trusted: the editor records into the workspace file, so ctxctl preview builds the same request afterwards', () => {
    const { root, storage } = workspace();
    const store = editorSessionStore(root, storage, true);
    store.append(exchange);
    assert.deepEqual(listing(storage), [], 'nothing in the extension storage');
    const task = 'Fix the 400s on POST /v1/payments.';
    const policy = loadPolicy(root);
    const editor = assemble(loadSnapshot({ root, task, policy, sessionFile: store.snapshotFile(), changes: false }), { now: NOW, sessionStore: store.ref() });
    const cli = assemble(loadSnapshot({ root, task, policy, changes: false }), { now: NOW });
    assert.equal(editor.serialized, cli.serialized);
    assert.equal(cli.manifest.session.stored, 26);
    assert.deepEqual(editor.manifest.session.store, { kind: 'workspace', path: SESSION_SOURCE });
  });

  it('restricted mode: extractive Compact, Edit and Undo write only the editor copy, never .context/session.summaries.jsonl', () => {
    const { root, storage } = workspace();
    const before = fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8');
    const contextDir = listing(path.join(root, '.context'));
    const store = editorSessionStore(root, storage, false);
    assert.deepEqual(store.ref(), { kind: 'workspace', path: SESSION_SOURCE }, 'until the first write, the workspace session is replayed');
    assert.deepEqual(compactEditUndo(root, store), ['compact', 'edit', 'undo']);
    assert.deepEqual(listing(path.join(root, '.context')), contextDir, 'no file added to the workspace');
    assert.equal(fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8'), before);
    assert.deepEqual(listing(storage), ['session.jsonl', 'session.summaries.jsonl']);
    assert.deepEqual(readSessionFile(path.join(storage, 'session.jsonl'), 'copy').events, readSessionFile(path.join(root, SESSION_SOURCE), 'workspace').events, 'the copy starts as the workspace session');
    assert.deepEqual(store.ref(), { kind: 'editor', path: path.join(storage, 'session.jsonl'), note: EDITOR_STORE_NOTE });
  });

  it('restricted mode: the manifest says the editor copy was replayed, and why it differs from ctxctl', () => {
    const { root, storage } = workspace();
    const store = editorSessionStore(root, storage, false);
    store.append(exchange);
    const a = assemble(loadSnapshot({ root, task: 'Fix it.', sessionFile: store.snapshotFile(), changes: false }), { now: NOW, sessionStore: store.ref() });
    assert.deepEqual(a.manifest.session.store, { kind: 'editor', path: path.join(storage, 'session.jsonl'), note: EDITOR_STORE_NOTE });
    assert.equal(a.manifest.session.stored, 26);
    assert.equal(assemble(loadSnapshot({ root, task: 'Fix it.', changes: false }), { now: NOW }).manifest.session.stored, 24, 'ctxctl replays the workspace file');
  });

  it('the copy starts with the workspace summary records, so the active summary does not change by copying', () => {
    const { root, storage } = workspace();
    const ws = workspaceStore(root);
    compactEditUndo(root, ws);
    const records = fs.readFileSync(ws.summariesFile, 'utf8');
    editorSessionStore(root, storage, false).append(exchange);
    assert.equal(fs.readFileSync(path.join(storage, 'session.summaries.jsonl'), 'utf8'), records);
  });

  it('restricted mode: the copy holds what replay reads, never the workspace bytes: a secret in the session or a summary is redacted', () => {
    const { root, storage } = workspace();
    const key = 'AKIA' + 'Q3EGRTWPLMKXN4ZD';
    const ws = path.join(root, SESSION_SOURCE);
    fs.appendFileSync(ws, JSON.stringify({ id: 'u8', type: 'user', text: `deploy with aws_access_key_id=${key}` }) + '\nnot json\n');
    const replayed = readSessionFile(ws, SESSION_SOURCE);
    compactEditUndo(root, workspaceStore(root));
    const summaries = path.join(root, '.context', 'session.summaries.jsonl');
    const [first, ...rest] = fs.readFileSync(summaries, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    first.summary.next_step = [`rotate ${key}`];
    fs.writeFileSync(summaries, [first, ...rest].map((r) => JSON.stringify(r) + '\n').join(''));
    editorSessionStore(root, storage, false).append(exchange);
    const copy = fs.readFileSync(path.join(storage, 'session.jsonl'), 'utf8');
    const copied = fs.readFileSync(path.join(storage, 'session.summaries.jsonl'), 'utf8');
    assert.equal(copy.includes(key) || copied.includes(key), false, 'the key is in neither copy');
    assert.equal(copy.includes('not json'), false, 'a malformed line is left out (replay of the workspace file reports it)');
    const said = (events: { id: string; type: string; text: string }[]) => events.map((e) => [e.id, e.type, e.text]);
    assert.deepEqual(said(readSessionFile(path.join(storage, 'session.jsonl'), 'copy').events), said([...replayed.events, ...exchange]));
    assert.equal(said(replayed.events).at(-1)?.[2], 'deploy with aws_access_key_id=[REDACTED:aws-access-key]');
    assert.deepEqual(JSON.parse(copied.split('\n')[0]).summary.next_step, ['rotate [REDACTED:aws-access-key]']);
  });

  it('restricted mode: a workspace session linked outside the workspace is refused, never copied into the editor storage', () => {
    const { root, storage } = workspace();
    const outside = path.join(tmp('ctxctl-stores-outside-'), 'session.jsonl');
    made.push(path.dirname(outside));
    fs.writeFileSync(outside, JSON.stringify({ id: 'x1', type: 'user', text: 'from outside the workspace' }) + '\n');
    const ws = path.join(root, SESSION_SOURCE);
    fs.rmSync(ws);
    fs.symlinkSync(outside, ws);
    const store = editorSessionStore(root, storage, false);
    assert.throws(() => store.append(exchange), (e: unknown) => e instanceof InputError && e.file === SESSION_SOURCE);
    assert.equal(fs.existsSync(path.join(storage, 'session.jsonl')), false, 'no copy made');
  });

  it('never appends events through a symlink or into a folder', () => {
    const { root } = workspace();
    const link = path.join(root, 'link.jsonl');
    fs.symlinkSync(path.join(root, SESSION_SOURCE), link);
    assert.throws(() => appendSessionEvents(link, exchange), (e: unknown) => e instanceof InputError && e.file === link && e.message === 'is not a regular file: the session events were not stored');
    assert.throws(() => appendSessionEvents(path.join(root, '.context'), exchange), /is not a regular file: the session events were not stored/);
  });
});
