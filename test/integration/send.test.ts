import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, root } from './api';

/** An OpenAI-compatible server on 127.0.0.1 that records the bytes it receives and streams a short answer. */
function fakeOpenAI(): Promise<{ url: string; bodies: string[]; close: () => void }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: 'The controller rejects ' }, null));
      res.write(chunk({ content: 'legacy payloads.' }, null));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies, close: () => server.close() })),
  );
}

suite('sending', () => {
  test('Send with an OpenAI-compatible server puts exactly the previewed, budget-checked bytes on the wire', async () => {
    const a = await api();
    const server = await fakeOpenAI();
    const config = vscode.workspace.getConfiguration('contextControl');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.url, vscode.ConfigurationTarget.Global);
    try {
      const preview = await assembleTicket(a);
      if (preview.kind !== 'ok') assert.fail(preview.kind);
      await vscode.commands.executeCommand('contextControl.send');
      assert.equal(server.bodies.length, 1, 'one request reached the server');
      assert.equal(server.bodies[0], preview.assembly.serialized, 'the bytes sent are the previewed bytes');
      const dir = path.join(a.service.outputDir, 'send');
      assert.equal(fs.readFileSync(path.join(dir, 'request.json'), 'utf8'), server.bodies[0]);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      assert.equal(manifest.budget.final, preview.assembly.manifest.budget.final);
      assert.ok(manifest.budget.final <= manifest.budget.max_input);
      assert.match(fs.readFileSync(path.join(dir, 'trace.txt'), 'utf8'), /FINAL REQUEST/);
      // The exchange is recorded in the workspace's session (trusted: the file ctxctl replays), after its own 24 events.
      const events = fs.readFileSync(path.join(root(), '.context', 'session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(events.slice(-2).map((e) => e.type), ['user', 'assistant']);
      assert.equal(events.at(-1).text, 'The controller rejects legacy payloads.');
      assert.equal(events.length, 26);
    } finally {
      await config.update('provider', undefined, vscode.ConfigurationTarget.Global);
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      server.close();
    }
  });
});
