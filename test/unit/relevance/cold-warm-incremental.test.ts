import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { assemble, type Assembly } from '../../../src/core/chain/assemble';
import { RelevanceIndex } from '../../../src/core/relevance/index';
import { restoreIndex, serializeIndex } from '../../../src/core/relevance/persist';
import { clearDocumentCache } from '../../../src/core/sources/document-cache';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { tempDir } from '../offload/results';

const TOPICS = ['payment', 'retry', 'timeout', 'gateway', 'ledger', 'refund', 'settlement', 'webhook'];
const NOW = () => new Date('2026-12-02T00:00:00Z');

/** Notes that share the task's words, one decision record, rules, a task; a window small enough to reject most. */
function workspace(): string {
  const root = tempDir('cold-warm');
  fs.mkdirSync(path.join(root, 'notes'), { recursive: true });
  fs.mkdirSync(path.join(root, 'docs', 'adr'), { recursive: true });
  for (let i = 0; i < 60; i++) {
    const [a, b] = [TOPICS[i % TOPICS.length], TOPICS[(i * 5 + 3) % TOPICS.length]];
    fs.writeFileSync(path.join(root, 'notes', `note-${i}.md`), `# Note ${i}: ${a} and ${b}\n\nMeeting note ${i} about the ${a} service and the ${b} flow. The payment gateway retry timeout came up.\n`);
  }
  fs.writeFileSync(path.join(root, 'docs', 'adr', '0007-retry-budget.md'), '# ADR-0007: Payment gateway retry budget\n\n## Status\n\nAccepted\n\n## Decision\n\nRetries are capped at 3.\n');
  fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n\n- Keep payments idempotent.\n');
  fs.writeFileSync(path.join(root, 'task.md'), 'Why does the payment gateway retry keep timing out?\n');
  fs.mkdirSync(path.join(root, '.context'));
  fs.writeFileSync(path.join(root, '.context', 'policy.yaml'), 'envelope: { window: 6000, output_reserve: 1000, margin: 200 }\n');
  return root;
}

const run = (root: string, index: RelevanceIndex): Assembly => assemble(loadSnapshot({ root, task: path.join(root, 'task.md'), changes: false }), { relevanceIndex: index, now: NOW });
const same = (a: Assembly, b: Assembly, what: string) => {
  assert.equal(a.serialized, b.serialized, `${what}: request`);
  assert.deepEqual(a.manifest, b.manifest, `${what}: manifest`);
  assert.equal(a.trace, b.trace, `${what}: trace`);
};

describe('cold, warm and incremental runs give the same request, manifest and trace', () => {
  it('a fresh index, a kept one restored from its bytes, and one kept in the process after an edit', () => {
    const root = workspace();
    clearDocumentCache();
    const kept = new RelevanceIndex();
    const cold = run(root, kept);
    assert.ok(cold.manifest.rejected.length > 10, 'most notes are rejected');
    assert.ok(cold.manifest.selected.some((s) => s.source === 'docs/adr/0007-retry-budget.md'));
    const bytes = serializeIndex(kept);
    same(run(root, restoreIndex(bytes)), cold, 'warm (restored index)');
    clearDocumentCache();
    same(run(root, restoreIndex(bytes)), cold, 'warm, documents parsed again');
    same(run(root, kept), cold, 'again in the same process');

    // One document edited: the index kept in the process, the stale one restored from disk and a fresh one agree.
    const sent = cold.manifest.selected.find((d) => d.source.startsWith('notes/'));
    assert.ok(sent, 'a note is sent');
    const note = path.join(root, sent.source);
    fs.writeFileSync(note, fs.readFileSync(note, 'utf8') + '\nEdit: the ledger retry now backs off on every payment gateway timeout.\n');
    const incremental = run(root, kept);
    const fresh = run(root, new RelevanceIndex());
    same(incremental, fresh, 'incremental (kept in the process)');
    same(run(root, restoreIndex(bytes)), fresh, 'incremental (restored before the edit)');
    assert.notEqual(incremental.serialized, cold.serialized, 'the edit changed the request');
    clearDocumentCache();
    same(run(root, new RelevanceIndex()), fresh, 'cold after the edit');
  });
});
