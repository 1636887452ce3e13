import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { assemble } from '../../../src/core/chain/assemble';
import { emptySummary } from '../../../src/core/session/schema';
import { rangeOf, type SummaryRecord } from '../../../src/core/session/summary-store';
import { appendSessionEvents, parseSession } from '../../../src/core/session/file';
import { loadSnapshot, type Pin } from '../../../src/core/sources/snapshot';
import { jsonl, SESSION_SOURCE, tempWorkspace } from './fixtures';

const RULE = 'Never change the public error body format of POST /v1/payments.';
const PIN: Pin = { id: 'p1', source: 'docs/contract.md', text: RULE, label: 'error body contract' };
const PINNED_BLOCK = `<pinned source="docs/contract.md" trust="user" label="error body contract">\n${RULE}\n</pinned>`;
const NOW = () => new Date('2026-11-12T10:20:00Z');

const EVENTS = [
  { id: 'e01', type: 'user', text: 'The checkout API times out after 30 s for large carts. Find out why.' },
  { id: 'e02', type: 'assistant', text: "I'll read the gateway log." },
  { id: 'e03', type: 'tool_call', text: '{"path": "gateway.log", "grep": "timeout"}', call_id: 'c1', tool: 'read_logs' },
  { id: 'e04', type: 'tool_result', text: 'gateway.log: 3 lines match "timeout"', call_id: 'c1', tool: 'read_logs' },
  { id: 'e05', type: 'user', text: 'Remember the pinned rule: never change the public error body format of POST /v1/payments. Any fix has to respect it.' },
  { id: 'e06', type: 'assistant', text: 'Timeouts come from the fraud check, which takes 31 s on carts above 200 items (confirmed in gateway.log).' },
  { id: 'e07', type: 'user', text: 'Good. Now propose a fix.' },
  { id: 'e08', type: 'assistant', text: 'Proposal: make the fraud check asynchronous for carts above 200 items.' },
];

const root = tempWorkspace({
  'AGENTS.md': '# Rules\n\n- Public HTTP APIs must stay backward compatible.\n',
  'ticket.md': '---\ntitle: Checkout timeout on large carts\n---\nCheckout times out after 30 s for carts above 200 items.\n',
  'docs/contract.md': `# Payment API contract\n\n${RULE}\n`,
  'gateway.log': '2026-11-12T09:00:00Z WARN timeout after 30000 ms cart=231 items\n',
  '.context/policy.yaml': 'session: { keep_recent_groups: 2, compaction_trigger_tokens: 9000, summary_format: structured }\n',
  [SESSION_SOURCE]: jsonl(EVENTS),
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

const snapshot = () => loadSnapshot({ root, task: path.join(root, 'ticket.md'), pins: [PIN] });
const folded = () => parseSession(fs.readFileSync(path.join(root, SESSION_SOURCE), 'utf8'), SESSION_SOURCE).events.slice(0, 6);
const stored = (decisions: string[]): SummaryRecord[] => [{
  id: 's1', action: 'compact', created_at: NOW().toISOString(), producer: 'model:gpt-4o', covers: rangeOf(folded()),
  summary: { ...emptySummary(), objective: 'Find why checkout times out for large carts.', decisions, established_facts: ['The fraud check takes 31 s on carts above 200 items.'], sources: ['gateway.log'] },
}];
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('pinned and mandatory blocks are never summarized', () => {
  it('the fallback folds e01…e06, keeps the quoted constraint, and the pinned block is sent verbatim, once, apart from the summary', () => {
    const a = assemble(snapshot(), { now: NOW });
    assert.deepEqual(a.manifest.compacted.map((d) => [d.producer, d.range]), [['extractive', 'e01…e06']]);
    const context = a.neutral.messages[0].content;
    assert.equal(occurrences(context, PINNED_BLOCK), 1);
    assert.ok(context.indexOf(PINNED_BLOCK) < context.indexOf('<session-summary'), 'durable rules come before the summary');
    const summary = context.slice(context.indexOf('<session-summary'), context.indexOf('</session-summary>'));
    assert.ok(summary.includes('decisions:\n  - "Remember the pinned rule: never change the public error body format of POST /v1/payments."'));
    assert.ok(!summary.includes('<pinned'), 'the pinned block is not inside the summary');
    assert.deepEqual(a.manifest.selected.filter((d) => d.kind === 'pinned').map((d) => [d.source, d.reason]), [['docs/contract.md', 'mandatory (pinned)']]);
  });

  it('a summary that drops the pinned constraint is rejected with the reason, and the pinned block and the raw events are still sent', () => {
    const a = assemble(snapshot(), { now: NOW, summaries: { records: stored(['Make the fraud check asynchronous.']) } });
    const why = `pinned constraint missing: "${RULE}" (docs/contract.md, quoted in e05)`;
    assert.deepEqual(a.manifest.rejected.filter((d) => d.kind === 'session_summary').map((d) => d.reason), [`summary rejected, raw events kept for this call: ${why}`]);
    assert.equal(occurrences(a.neutral.messages[0].content, PINNED_BLOCK), 1);
    assert.ok(a.neutral.messages.some((m) => m.role === 'user' && m.content.includes(' id="e05" role="user" trust="session">\n') && m.content.endsWith(`>\n${EVENTS[4].text}\n</turn>`)), 'e05 is replayed raw');
  });

  it('a summary that keeps it is used, and the pinned block is re-injected verbatim after every compaction', () => {
    const keeps = stored([`${RULE} (pinned)`]);
    const first = assemble(snapshot(), { now: NOW, summaries: { records: keeps } });
    assert.deepEqual(first.manifest.compacted.map((d) => [d.producer, d.summary_id]), [['model:gpt-4o', 's1']]);
    assert.equal(occurrences(first.neutral.messages[0].content, PINNED_BLOCK), 1);
    // Two more turns: the fold moves on (stored summary extended by the fallback); the pin is still there, verbatim.
    appendSessionEvents(path.join(root, SESSION_SOURCE), [
      { id: 'e09', type: 'user', text: 'Go ahead with the asynchronous fraud check.' },
      { id: 'e10', type: 'assistant', text: 'Done: the fraud check now runs asynchronously above 200 items; the error body is unchanged.' },
    ]);
    const second = assemble(snapshot(), { now: NOW, summaries: { records: keeps } });
    assert.deepEqual(second.manifest.compacted.map((d) => [d.producer, d.range]), [['model:gpt-4o+extractive', 'e01…e08']]);
    assert.equal(occurrences(second.neutral.messages[0].content, PINNED_BLOCK), 1);
    assert.ok(second.serialized.includes(JSON.stringify(PINNED_BLOCK).slice(1, -1)), 'verbatim in the exact bytes sent');
  });
});
