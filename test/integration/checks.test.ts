import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CaseResult } from '../../src/core/compare/check-run';
import { api, root } from './api';

suite('context checks and Compare Policies', () => {
  test('the example\'s checks.yaml is in the Test Explorer: one item per case at its line, and it passes', async () => {
    const a = await api();
    await a.checks.discover();
    const uri = vscode.Uri.file(path.join(root(), '.context', 'checks.yaml'));
    const file = a.checks.controller.items.get(uri.toString());
    assert.ok(file, 'the checks file is a test item');
    assert.equal(file.label, '.context/checks.yaml');
    assert.equal(file.error, undefined);
    const cases: vscode.TestItem[] = [];
    file.children.forEach((c) => void cases.push(c));
    assert.deepEqual(cases.map((c) => [c.label, c.range?.start.line, c.uri?.fsPath]), [['payment incident keeps its evidence', 2, uri.fsPath]]);
    const results = await a.checks.run({ include: [cases[0]], exclude: [] });
    const r = results.get(cases[0].id) as CaseResult;
    assert.equal(typeof r, 'object', String(r));
    assert.equal(r.error, undefined);
    assert.deepEqual(r.results.filter((x) => !x.ok), []);
    assert.equal(r.results.length, 11);
    assert.equal(r.skipped.length, 5, 'answer expectations are not checked without a send');
  });

  test('a failing case fails at its expectation\'s line; a file that does not parse shows its error on the file item', async () => {
    const a = await api();
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'checks-ws-'));
    fs.mkdirSync(path.join(ws, '.context'));
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Rules\n\n- Keep the API stable.\n');
    fs.writeFileSync(path.join(ws, 'ticket.md'), '# Checkout fails\n\nLegacy clients get HTTP 400.\n');
    const checks = path.join(ws, '.context', 'checks.yaml');
    fs.writeFileSync(checks, '- name: holds\n  task: ticket.md\n  contains: Legacy clients\n- name: misses\n  task: ticket.md\n  contains:\n    - Keep the API stable\n    - rollback runbook\n');
    const item = a.checks.load(vscode.Uri.file(checks));
    assert.equal(item.error, undefined);
    const ids: string[] = [];
    item.children.forEach((c) => void ids.push(c.id));
    assert.equal(ids.length, 2);
    const results = await a.checks.run({ include: [item], exclude: [] });
    assert.deepEqual((results.get(ids[0]) as CaseResult).results.map((x) => x.ok), [true]);
    const missing = (results.get(ids[1]) as CaseResult).results;
    assert.deepEqual(missing.map((x) => [x.ok, x.line, x.expectation]), [[true, 7, 'contains "Keep the API stable"'], [false, 8, 'contains "rollback runbook"']]);
    assert.match(missing[1].found, /^not in the request \([\d\u202f]+ tokens\)$/);

    fs.writeFileSync(checks, '- name: broken\n  task: ticket.md\n  contain: x\n');
    const broken = a.checks.load(vscode.Uri.file(checks));
    assert.equal(broken.children.size, 0);
    assert.match(String(broken.error), /checks\.yaml:3:3: unknown key "contain" in case 1; did you mean "contains"\?/);
    a.checks.controller.items.delete(broken.id);
    fs.rmSync(ws, { recursive: true, force: true });
  });

  test('Compare Policies… with the example policy and the lean one posts the Compare tab: variants, zones, the diff', async () => {
    const a = await api();
    await vscode.workspace.getConfiguration('contextControl').update('taskFile', 'ticket.md', vscode.ConfigurationTarget.Workspace);
    const result = await vscode.commands.executeCommand<Awaited<ReturnType<typeof a.comparison.run>>>('contextControl.comparePolicies', ['.context/policy.yaml', '.context/policies/lean.yaml']);
    assert.equal(result.status, 'done', result.message);
    assert.deepEqual(result.variants.map((v) => v.name), ['policy', 'lean']);
    const tools = result.variants.map((v) => v.zones.find((z) => z.zone === 'tool_results')!.tokens);
    assert.ok(tools[1] <= 300 && tools[0] > tools[1], `tool results ${tools.join(' vs ')}`);
    assert.ok(result.variants[1].final < result.variants[0].final);
    assert.deepEqual(result.diff.map((d) => [d.change, d.source]), [['tokens', 'application.log']]);
    assert.deepEqual(result.variants[1].evidence.filter((x) => !x.ok).map((x) => x.text.split(': ')[1]), ['contains "MethodArgumentNotValidException"']);
    assert.deepEqual(a.panel.lastCompare?.compare, result, 'the panel got the same comparison');
    // One set of numbers: the current policy's column is the panel's (and the status bar's) request.
    const state = await a.service.run();
    assert.equal(state.kind, 'ok');
    if (state.kind === 'ok') assert.deepEqual([result.variants[0].final, result.variants[0].maxInput, result.variants[0].mandatory], [state.assembly.manifest.budget.final, state.assembly.manifest.budget.max_input, state.assembly.manifest.budget.mandatory]);
  });

  test('Send Variants sends each compared variant once and the Compare tab gets the answers with their checks', async () => {
    const a = await api();
    const bodies: string[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: 'paymentMethod became required in PaymentController.java; ' }, null));
        res.write(chunk({ content: 'application.log shows the 400s; ADR-012 applies.' }, null));
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = vscode.workspace.getConfiguration('contextControl');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, vscode.ConfigurationTarget.Global);
    try {
      await config.update('taskFile', 'ticket.md', vscode.ConfigurationTarget.Workspace);
      const dry = await vscode.commands.executeCommand<Awaited<ReturnType<typeof a.comparison.run>>>('contextControl.comparePolicies', ['.context/policy.yaml', '.context/policies/lean.yaml']);
      assert.equal(dry.status, 'done', dry.message);
      const sent = await vscode.commands.executeCommand<Awaited<ReturnType<typeof a.comparison.run>>>('contextControl.compareSend');
      assert.equal(sent.status, 'done', sent.message);
      assert.equal(sent.provider, 'openai');
      assert.equal(bodies.length, 2, 'one request per variant');
      assert.deepEqual(sent.variants.map((v) => v.final), dry.variants.map((v) => v.final), 'the variants sent are the variants compared');
      for (const v of sent.variants) {
        assert.equal(v.runs.length, 1);
        assert.equal(v.runs[0].answer, 'paymentMethod became required in PaymentController.java; application.log shows the 400s; ADR-012 applies.');
        assert.deepEqual(v.runs[0].checks.map((c) => [c.ok, c.text.split(':')[0]]), [
          [true, 'mentions "paymentMethod"'], [true, 'mentions "ADR-012"'], [true, 'cites application.log'], [true, 'cites PaymentController.java'], [true, 'not_claims "ADR-008 is still in force"'],
        ]);
      }
      assert.deepEqual(a.panel.lastCompare?.compare, sent);
    } finally {
      await config.update('provider', undefined, vscode.ConfigurationTarget.Global);
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      server.close();
    }
  });
});
