import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallRecord } from '../../src/core/gateway/record';
import { callDescription, lastCallStatus } from '../../src/vscode/views/agentCalls';
import { startFakeUpstream, type FakeUpstream } from '../unit/gateway/fake-upstream';
import { api, root, until } from './api';

const S = '\u202f';
const RECORDS = () => path.join(root(), '.context', 'gateway');
const config = () => vscode.workspace.getConfiguration('contextControl.gateway');

function post(url: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (s: string) => (text += s)).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

suite('gateway: start from the editor, the Agent calls view, the status bar', () => {
  let fake: FakeUpstream | undefined;

  teardown(async () => {
    const a = await api();
    await vscode.commands.executeCommand('contextControl.stopGateway');
    await fake?.close();
    fake = undefined;
    await config().update('port', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(RECORDS(), { recursive: true, force: true });
    a.gateway.reload();
  });

  test('Start Gateway runs ctxctl gateway; a call through it appears in the Agent calls view and the status bar; Stop stops it', async function () {
    this.timeout(60_000);
    const a = await api();
    fake = await startFakeUpstream();
    await config().update('port', 0, vscode.ConfigurationTarget.Workspace);
    const url = await vscode.commands.executeCommand<string | undefined>('contextControl.startGateway', { anthropicUpstream: fake.url });
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(a.gateway.running, true);
    assert.equal(a.gateway.status.text, '$(pulse) gateway');

    const answer = await post(url!, { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Why does the payment retry twice?' }] });
    assert.equal(answer.status, 200);
    assert.equal(fake.requests.length, 1);

    // The watcher on .context/gateway/ refreshes the view: no reload() here.
    const [node] = await until('the call in the Agent calls view', () => a.gateway.tree.nodes.length === 1 && a.gateway.tree.nodes, 20_000);
    const file = String(node.command?.arguments?.[0]);
    const record = JSON.parse(fs.readFileSync(path.join(RECORDS(), file), 'utf8')) as CallRecord;
    assert.equal(node.label, 'claude-sonnet-4-5');
    assert.equal(node.description, callDescription(record));
    assert.match(node.description ?? '', new RegExp(`^\\d[\\d${S}]* / 200${S}000 · (no change|\\d+ changes?: [a-z, -]+) · cache hit 1${S}000 · first call$`));
    assert.equal(a.gateway.status.text, lastCallStatus(record));
    assert.equal(a.gateway.status.command, 'contextControl.agentCalls.focus');

    await vscode.commands.executeCommand('contextControl.openAgentCall', file);
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'ctxctl-call');
    assert.equal((JSON.parse(doc!.getText()) as { model: string }).model, 'claude-sonnet-4-5');
    await vscode.commands.executeCommand('contextControl.compareAgentCallReceived', node);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await vscode.commands.executeCommand('contextControl.stopGateway');
    assert.equal(a.gateway.running, false);
  });

  test('a port in use: the start is refused with the CLI\'s one-line message', async function () {
    this.timeout(30_000);
    const a = await api();
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      await config().update('port', port, vscode.ConfigurationTarget.Workspace);
      const url = await vscode.commands.executeCommand<string | undefined>('contextControl.startGateway');
      assert.equal(url, undefined);
      assert.equal(a.gateway.running, false);
      assert.match(a.gateway.lastError ?? '', new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`));
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
});
