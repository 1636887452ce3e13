import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionLabel, actionsFor } from '../../../src/view-model/item-actions';
import { refusalAdvice } from '../../../src/view-model/refusal';

const item = (o: Partial<Parameters<typeof actionsFor>[0]>) => ({ source: 'docs/a.md', kind: 'document', sent: true, protected: false, ...o });

describe('view model: the actions of an item', () => {
  it('offers Exclude first on a sent item, Include first on one not sent, and Reset to automatic once overridden', () => {
    assert.deepEqual(actionsFor(item({})), ['exclude', 'include', 'pin', 'open', 'copy']);
    assert.deepEqual(actionsFor(item({ sent: false, kind: 'tool_result', source: 'application.log' })), ['include', 'exclude', 'pin', 'open', 'copy']);
    assert.deepEqual(actionsFor(item({ override: 'include' })), ['exclude', 'reset', 'pin', 'open', 'copy']);
    assert.deepEqual(actionsFor(item({ sent: false, override: 'exclude' })), ['include', 'reset', 'pin', 'open', 'copy']);
  });

  it('never offers Include or Exclude on a protected block: Unpin for a pin, Edit for a rule or the task file, the policy line for a built-in', () => {
    assert.deepEqual(actionsFor(item({ kind: 'agents_md', source: 'AGENTS.md', protected: true })), ['edit', 'copy']);
    assert.deepEqual(actionsFor(item({ kind: 'pinned', source: 'docs/runbook.md', protected: true, pinId: 'p1' })), ['unpin', 'open', 'copy']);
    assert.deepEqual(actionsFor(item({ kind: 'current_task', source: 'ticket.md', protected: true })), ['edit', 'copy']);
    assert.deepEqual(actionsFor(item({ kind: 'current_task', source: 'task', protected: true })), ['copy']);
    assert.deepEqual(actionsFor(item({ kind: 'system_instructions', source: 'builtin:system', protected: true })), ['policy', 'copy']);
    assert.equal(actionLabel('edit', 'agents_md'), 'Edit rule');
    assert.equal(actionLabel('edit', 'current_task'), 'Edit task');
  });

  it('offers no override on what the chain cannot override: a rule that does not apply, a session event', () => {
    assert.deepEqual(actionsFor(item({ kind: 'agents_md', source: 'web/AGENTS.md', sent: false })), ['pin', 'open', 'copy']);
    assert.deepEqual(actionsFor(item({ kind: 'session_group', source: '.context/session.jsonl#e17', sent: false })), ['open', 'copy']);
  });
});

describe('view model: a refusal, its cause and its fix', () => {
  it('names the include that does not fit and the window that would hold the request', () => {
    const a = refusalAdvice({ final: 8650, maxInput: 6500, window: 8000, blocks: [{ source: 'docs/architecture.md', kind: 'document', tokens: 6436 }, { source: 'AGENTS.md', kind: 'agents_md', tokens: 455 }], overrides: { 'docs/architecture.md': 'include' } });
    assert.equal(a.title, 'Refused: docs/architecture.md, included by you, does not fit');
    assert.equal(a.fix, 'Remove the include of docs/architecture.md (it then competes for the budget like any document), unpin a block, or raise the window to 10\u202f150. Nothing can be sent, copied or exported until then.');
    assert.deepEqual([a.over, a.windowToFit], [2150, 10150]);
  });

  it('without an include, the protected blocks are the cause', () => {
    const a = refusalAdvice({ final: 3600, maxInput: 3500, window: 6500, blocks: [], overrides: {} });
    assert.equal(a.title, 'Refused: the protected blocks alone do not fit');
    assert.equal(a.fix, "Unpin a block, shorten a rule (Edit rule), take a kind out of the policy's mandatory list, or raise the window to 6\u202f600. Nothing can be sent, copied or exported until then.");
  });
});
