import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, root } from './api';

suite('session summary', () => {
  test('Compact Session Now stores a validated summary beside the events, and Undo takes it back', async () => {
    const a = await api();
    await assembleTicket(a);
    // The editor keeps its session (and the summaries beside it) in the extension's storage, seeded from the workspace.
    const store = path.join(a.service.outputDir, 'session.summaries.jsonl');
    const before = fs.existsSync(store) ? fs.readFileSync(store, 'utf8').trim().split('\n').filter(Boolean).length : 0;
    await vscode.commands.executeCommand('contextControl.compactSession');
    const records = fs.readFileSync(store, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(records.length, before + 1);
    const compact = records.at(-1);
    assert.equal(compact.action, 'compact');
    assert.equal(compact.covers.from, 'e01');
    const state = a.service.state;
    if (state.kind !== 'ok') assert.fail(state.kind);
    const stored = fs.readFileSync(path.join(a.service.outputDir, 'session.jsonl'), 'utf8').trim().split('\n').length;
    assert.ok(stored >= 24);
    assert.equal(state.assembly.manifest.session.stored, stored, 'previews replay the editor\'s session store');
    assert.ok(state.assembly.blocks.some((b) => b.kind === 'session_summary'), 'the stored summary is replayed');
    await vscode.commands.executeCommand('contextControl.undoSummary');
    const after = fs.readFileSync(store, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(after.at(-1).action, 'undo');
    assert.equal(after.at(-1).target, compact.id);
    assert.ok(!fs.existsSync(path.join(root(), '.context', 'session.summaries.jsonl')), 'the workspace is not written');
    assert.ok(fs.readFileSync(path.join(a.service.outputDir, 'session.jsonl'), 'utf8').startsWith(fs.readFileSync(path.join(root(), '.context', 'session.jsonl'), 'utf8')), 'seeded from the workspace session');
  });
});
