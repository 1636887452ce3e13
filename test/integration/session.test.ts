import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
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
    await vscode.commands.executeCommand('contextControl.compactSession', { with: 'extractive' });
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

suite('session summary from the model', () => {
  test('Compact with the model sends the folded events with the JSON schema, and a summary that turns a hypothesis into a fact is not stored', async () => {
    const a = await api();
    await assembleTicket(a);
    const bodies: string[] = [];
    // The model answers with the mobile-v1 hypothesis as an established fact: validation must refuse it.
    const summary = {
      objective: 'Fix the regression of legacy payment clients.',
      established_facts: ['The mobile client still uses v1 of the API.'],
      decisions: [],
      completed_actions: [],
      unresolved_questions: [],
      next_step: [],
      sources: ['application.log'],
    };
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(summary) }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const config = vscode.workspace.getConfiguration('contextControl');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, vscode.ConfigurationTarget.Global);
    const store = path.join(a.service.outputDir, 'session.summaries.jsonl');
    const count = () => (fs.existsSync(store) ? fs.readFileSync(store, 'utf8').trim().split('\n').filter(Boolean).length : 0);
    try {
      const before = count();
      await vscode.commands.executeCommand('contextControl.compactSession', { with: 'model' });
      assert.equal(bodies.length, 1, 'one summary request reached the server');
      const sent = JSON.parse(bodies[0]);
      assert.match(sent.messages[0].content, /JSON schema \(session_summary\)/);
      assert.match(sent.messages[1].content, /<session-events from="e01"/);
      assert.equal(count(), before, 'the rejected summary was not stored');
    } finally {
      await config.update('provider', undefined, vscode.ConfigurationTarget.Global);
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      server.close();
    }
  });
});
