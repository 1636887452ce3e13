import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, assembleTicket, root, until } from './api';
import type { Node } from '../../src/vscode/views/tree';

const OVERRIDES = () => path.join(root(), '.context', 'overrides.json');
const find = (nodes: Node[], source: string): Node | undefined => {
  for (const n of nodes) {
    if (n.open?.source === source && n.contextValue) return n;
    const hit = n.children && find(n.children, source);
    if (hit) return hit;
  }
  return undefined;
};
/** `ctxctl preview` on the same workspace, as a CLI user runs it: the bundled dist/cli.js. */
function cliManifest(): { selected: { source: string }[]; rejected: { source: string; reason: string }[] } {
  const ext = vscode.extensions.getExtension('context-control.context-control')!;
  const out = execFileSync(process.execPath, [path.join(ext.extensionPath, 'dist', 'cli.js'), 'preview', '--workspace', root(), '--task', path.join(root(), 'ticket.md'), '--no-git', '--json'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' } });
  return JSON.parse(out).manifest;
}

suite('control: overrides, Problems, pin size', () => {
  teardown(async () => {
    fs.rmSync(OVERRIDES(), { force: true });
    const a = await api();
    for (const p of a.pins.list()) await a.pins.unpin(p.id);
    await a.service.run();
  });

  test('Exclude on an Index item writes .context/overrides.json, and ctxctl preview sees it', async () => {
    const a = await api();
    await assembleTicket(a);
    const item = find(a.trees.index.nodes, 'docs/adr/adr-012-optional-fields-at-http-boundary.md');
    assert.equal(item?.contextValue, 'ctxItem');
    await vscode.commands.executeCommand('contextControl.exclude', item);
    assert.deepEqual(JSON.parse(fs.readFileSync(OVERRIDES(), 'utf8')), { version: 1, include: [], exclude: ['docs/adr/adr-012-optional-fields-at-http-boundary.md'] });
    const state = a.service.state;
    if (state.kind !== 'ok') assert.fail(state.kind);
    assert.equal(state.assembly.manifest.rejected.find((d) => d.source === 'docs/adr/adr-012-optional-fields-at-http-boundary.md')?.reason, 'excluded by you');
    assert.equal(find(a.trees.index.nodes, 'docs/adr/adr-012-optional-fields-at-http-boundary.md')?.contextValue, 'ctxItem.excluded');
    const cli = cliManifest();
    assert.equal(cli.rejected.find((d) => d.source === 'docs/adr/adr-012-optional-fields-at-http-boundary.md')?.reason, 'excluded by you');
    await vscode.commands.executeCommand('contextControl.clearOverride', 'docs/adr/adr-012-optional-fields-at-http-boundary.md');
    assert.equal(fs.existsSync(OVERRIDES()), false, 'no override left: the file is removed');
  });

  test('an include written to the file (as the CLI user does) is picked up by the editor', async () => {
    const a = await api();
    await assembleTicket(a);
    fs.writeFileSync(OVERRIDES(), JSON.stringify({ version: 1, include: ['docs/runbook.md'] }));
    const state = await a.service.run();
    if (state.kind !== 'ok') assert.fail(state.kind);
    assert.ok(state.assembly.blocks.some((b) => b.source === 'docs/runbook.md'));
    assert.equal(state.assembly.manifest.indexed.some((d) => d.source === 'docs/runbook.md'), false);
    assert.equal(find(a.trees.index.nodes, 'docs/runbook.md')?.contextValue, 'ctxItem.included');
    assert.ok(cliManifest().selected.some((d) => d.source === 'docs/runbook.md'));
  });

  test('a bad overrides file is an error in Problems at its line and column', async () => {
    const a = await api();
    await assembleTicket(a);
    fs.writeFileSync(OVERRIDES(), '{\n  "include": "docs/runbook.md"\n}\n');
    const state = await a.service.run();
    assert.equal(state.kind, 'error');
    const uri = vscode.Uri.file(OVERRIDES());
    const diags = await until('the diagnostic', () => vscode.languages.getDiagnostics(uri).length > 0 && vscode.languages.getDiagnostics(uri));
    assert.equal(diags.length, 1);
    assert.equal(diags[0].message, '"include" must be a list of workspace-relative paths');
    assert.equal(diags[0].severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([diags[0].range.start.line, diags[0].range.start.character], [1, 13]);
    fs.rmSync(OVERRIDES());
    await a.service.run();
    assert.deepEqual(vscode.languages.getDiagnostics(uri), [], 'fixed: the problem goes away');
  });

  test('pinning a file larger than the free room asks first; No leaves no pin, and unpinning the last pin removes pins.json', async () => {
    const a = await api();
    await assembleTicket(a);
    await vscode.workspace.getConfiguration('contextControl').update('envelope.window', 9000, vscode.ConfigurationTarget.Workspace);
    const ask = a.control.pinPrompt.ask;
    const asked: string[] = [];
    try {
      await a.service.run();
      a.control.pinPrompt.ask = async (m) => (asked.push(m), false);
      const uri = vscode.Uri.file(path.join(root(), 'docs/architecture.md'));
      await vscode.commands.executeCommand('contextControl.pinFile', uri);
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^Pin docs\/architecture\.md \([\d\u202f]+ tokens\)\? This pin would be refused: protected blocks [\d\u202f]+ tokens, [\d\u202f]+ over max_input 6\u202f000\./);
      assert.equal(a.pins.list().length, 0, 'declined: nothing pinned');
      a.control.pinPrompt.ask = async () => true;
      await vscode.commands.executeCommand('contextControl.pinItem', find(a.trees.index.nodes, 'docs/architecture.md'));
      assert.equal(a.pins.list().length, 1);
      assert.match(a.trees.pinned.nodes[0].description ?? '', /^docs\/architecture\.md · [\d\u202f]+ tok$/, 'a whole-file pin shows its tokens');
      assert.ok(fs.existsSync(path.join(root(), '.context', 'pins.json')));
      await a.pins.unpin(a.pins.list()[0].id);
      assert.equal(fs.existsSync(path.join(root(), '.context', 'pins.json')), false, 'no pins: no pins.json holding []');
    } finally {
      a.control.pinPrompt.ask = ask;
      await vscode.workspace.getConfiguration('contextControl').update('envelope.window', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
