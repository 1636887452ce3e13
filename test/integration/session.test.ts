import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, EXTENSION_ID, root } from './api';

/** `ctxctl preview` on the same workspace, as a separate process: its manifest and the request it would send. */
function ctxctlPreview(model: string): { manifest: { session: unknown }; request: { messages: { role: string; content: string }[] } } {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error('extension not found');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxctl-agree-'));
  execFileSync(process.execPath, [path.join(ext.extensionPath, 'dist', 'cli.js'), 'preview', '--workspace', root(), '--task', path.join(root(), 'ticket.md'), '--model', model, '--out', out], { stdio: 'pipe' });
  return { manifest: JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')), request: JSON.parse(fs.readFileSync(path.join(out, 'request.json'), 'utf8')) };
}

/** What a request carries of the session: the summary element and the replayed turns, tool calls and results. */
function sessionPart(messages: { role: string; content: string; tool_calls?: unknown; tool_call_id?: string }[]): string[] {
  const summary = /<session-summary[\s\S]*?<\/session-summary>/.exec(messages.map((m) => m.content ?? '').join('\n'))?.[0] ?? '';
  const replayed = messages.filter((m) => m.role === 'tool' || m.tool_calls || (m.content ?? '').startsWith('<turn '));
  return [summary, ...replayed.map((m) => JSON.stringify(m))];
}

suite('session summary', () => {
  test('Compact Session Now stores a validated summary beside the workspace session, and Undo takes it back', async () => {
    const a = await api();
    await assembleTicket(a);
    // A trusted workspace: the editor replays and records into the workspace's own session, the file ctxctl reads.
    const store = path.join(root(), '.context', 'session.summaries.jsonl');
    const before = fs.existsSync(store) ? fs.readFileSync(store, 'utf8').trim().split('\n').filter(Boolean).length : 0;
    await vscode.commands.executeCommand('contextControl.compactSession', { with: 'extractive' });
    const records = fs.readFileSync(store, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(records.length, before + 1);
    const compact = records.at(-1);
    assert.equal(compact.action, 'compact');
    assert.equal(compact.covers.from, 'e01');
    const state = a.service.state;
    if (state.kind !== 'ok') assert.fail(state.kind);
    const stored = fs.readFileSync(path.join(root(), '.context', 'session.jsonl'), 'utf8').trim().split('\n').length;
    assert.ok(stored >= 24);
    assert.equal(state.assembly.manifest.session.stored, stored, 'previews replay the workspace session');
    assert.deepEqual(state.assembly.manifest.session.store, { kind: 'workspace', path: '.context/session.jsonl' });
    assert.ok(state.assembly.blocks.some((b) => b.kind === 'session_summary'), 'the stored summary is replayed');
    assert.ok(!fs.existsSync(path.join(a.service.outputDir, 'session.jsonl')), 'no second copy of the session in the extension storage');
    await vscode.commands.executeCommand('contextControl.undoSummary');
    const after = fs.readFileSync(store, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(after.at(-1).action, 'undo');
    assert.equal(after.at(-1).target, compact.id);
  });

  test('the editor and ctxctl replay the same session: same manifest section, same summary and turns in the request', async () => {
    const a = await api();
    await assembleTicket(a);
    await vscode.commands.executeCommand('contextControl.compactSession', { with: 'extractive' });
    try {
      const state = a.service.state;
      if (state.kind !== 'ok') assert.fail(state.kind);
      const cli = ctxctlPreview(state.settings.model);
      assert.deepEqual(cli.manifest.session, state.assembly.manifest.session);
      const editorRequest = JSON.parse(state.assembly.serialized) as { messages: { role: string; content: string }[] };
      const part = sessionPart(editorRequest.messages);
      assert.match(part[0], /^<session-summary source="\.context\/session\.jsonl#summary"[^>]*>\n# Summary of session events e01…/);
      assert.ok(part.length > 4, `the session is replayed (${part.length - 1} messages)`);
      assert.deepEqual(sessionPart(cli.request.messages), part);
    } finally {
      await vscode.commands.executeCommand('contextControl.undoSummary');
    }
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
    const store = path.join(root(), '.context', 'session.summaries.jsonl');
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
