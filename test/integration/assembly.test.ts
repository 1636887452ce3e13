import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { previewFor } from '../../src/vscode/views/panel';
import { api, assembleTicket } from './api';

suite('preview, trees and status bar', () => {
  test('assembles the example within budget, with its decisions: ADR-012 sent, ADR-008 superseded, marketing unrelated', async () => {
    const a = await api();
    const state = await assembleTicket(a);
    assert.equal(state.kind, 'ok', state.kind === 'error' ? state.error.message : state.kind);
    if (state.kind !== 'ok') return;
    const m = state.assembly.manifest;
    assert.ok(m.budget.final <= 11000 && m.budget.max_input === 11000, `final ${m.budget.final}`);
    assert.ok(m.selected.some((s) => s.source === 'docs/adr/adr-012-optional-fields-at-http-boundary.md'));
    assert.equal(m.rejected.find((r) => r.source === 'docs/adr/adr-008-payment-method-mandatory.md')?.reason, 'superseded by ADR-012');
    assert.equal(m.rejected.find((r) => r.source === 'docs/marketing-notes.md')?.reason, "unrelated component: marketing (front matter); the task's: payment (from its front matter)");
    assert.deepEqual(m.task.signals?.identifiers.slice(0, 2), ['paymentMethod', 'BAD_REQUEST']);
  });

  test('the status bar shows <final> / <max_input> and the zone breakdown', async () => {
    const a = await api();
    const state = await assembleTicket(a);
    if (state.kind !== 'ok') assert.fail(state.kind);
    const b = state.assembly.manifest.budget;
    const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
    assert.equal(a.statusBar.text, `$(symbol-ruler) ${fmt(b.final)} / ${fmt(b.max_input)}`);
    assert.equal(a.statusBar.command, 'contextControl.openPanel');
    const tooltip = a.statusBar.tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /\| protected \| [\d\u202f]+ \|/);
    assert.match(tooltip.value, /\| tool_results \| [\d\u202f]+ \|/);
  });

  test('the manifest tree groups every decision with its reason and tokens', async () => {
    const a = await api();
    await assembleTicket(a);
    const groups = a.trees.manifest.nodes;
    assert.deepEqual(groups.map((g) => g.label).slice(0, 6), ['Selected', 'Rejected', 'Trimmed', 'Offloaded', 'Indexed', 'Compacted']);
    const rejected = groups[1].children!;
    const adr8 = rejected.find((n) => n.label === 'docs/adr/adr-008-payment-method-mandatory.md');
    assert.ok(adr8, 'ADR-008 is listed as rejected');
    assert.match(adr8!.description!, /^superseded by ADR-012 · [\d\u202f]+ tok$/);
    assert.deepEqual(adr8!.open, { source: 'docs/adr/adr-008-payment-method-mandatory.md' });
    const trimmed = groups[2].children!;
    assert.equal(trimmed[0].label, 'application.log');
  });

  test('the index tree groups instructions, decisions, documents, logs and offloaded', async () => {
    const a = await api();
    await assembleTicket(a);
    const groups = a.trees.index.nodes;
    assert.deepEqual(groups.map((g) => g.label), ['Task signals', 'Instructions', 'Decisions', 'Documents', 'Logs and tool output', 'Offloaded']);
    assert.deepEqual(groups[0].children!.find((n) => n.label === 'Components')?.description, 'payment (from its front matter)');
    assert.equal(groups[1].children![0].label, 'AGENTS.md');
    const [accepted, retired] = groups[2].children!;
    assert.ok(accepted.children!.some((n) => n.label.startsWith('ADR-012')));
    assert.ok(retired.children!.some((n) => n.label.startsWith('ADR-008') && n.description!.endsWith('superseded')));
    assert.match(accepted.children!.find((n) => n.label.startsWith('ADR-012'))!.description!, / · accepted · relevance \d\.\d\d · selected$/);
    // One figure per block: the index shows the count the manifest has for what was sent (exact, no ~), an estimate (~) otherwise.
    const manifest = a.service.state.kind === 'ok' ? a.service.state.assembly.manifest : undefined;
    const adr12 = manifest!.selected.find((d) => d.source.includes('adr-012'))!;
    assert.ok(accepted.children!.find((n) => n.label.startsWith('ADR-012'))!.description!.startsWith(`${String(adr12.tokens).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} tok · `));
    const arch = groups[3].children!.find((n) => n.open?.source === 'docs/architecture.md');
    assert.ok(arch, 'architecture.md is in the index');
    assert.match(arch!.tooltip!, /indexed: (did not fit the budget|below the relevance threshold)/);
    assert.ok(arch!.open!.line! >= 1, 'opens at its heading');
    assert.match(arch!.description!, /^~[\d\u202f]+ tok · /, 'a document that was not sent shows an estimate');
    assert.equal(groups[4].children![0].label, 'application.log');
  });

  test('the panel preview lists blocks in request order: system first, the task last', async () => {
    const a = await api();
    const state = await assembleTicket(a);
    const p = previewFor(state, a.host.settings);
    assert.equal(p.status, 'ok');
    assert.equal(p.blocks[0].kind, 'system_instructions');
    assert.equal(p.blocks.at(-1)!.kind, 'current_task');
    assert.match(p.blocks.at(-1)!.text, /^<task source="ticket\.md" trust="user">/);
    assert.ok(p.zones.some((z) => z.zone === 'protected' && z.tokens > 0));
    assert.match(p.trace, /FINAL REQUEST\n {2}[\d\u202f]+ \/ 11\u202f000 tokens/);
  });

  test('Open manifest.json opens the file written by the last assembly', async () => {
    const a = await api();
    await assembleTicket(a);
    await vscode.commands.executeCommand('contextControl.openManifest');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc && doc.fileName.endsWith('manifest.json'), `active: ${doc?.fileName}`);
    const manifest = JSON.parse(doc!.getText());
    assert.equal(manifest.budget.max_input, 11000);
    assert.ok(fs.existsSync(path.join(path.dirname(doc!.fileName), 'trace.txt')));
  });

  test('settings apply without a reload: a smaller window changes max_input', async () => {
    const a = await api();
    await assembleTicket(a);
    const config = vscode.workspace.getConfiguration('contextControl');
    await config.update('envelope.window', 9000, vscode.ConfigurationTarget.Workspace);
    try {
      const state = await a.service.run();
      if (state.kind !== 'ok') assert.fail(state.kind);
      assert.equal(state.assembly.manifest.budget.max_input, 6000);
      assert.match(a.statusBar.text, / \/ 6\u202f000$/);
    } finally {
      await config.update('envelope.window', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
