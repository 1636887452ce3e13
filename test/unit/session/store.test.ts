import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { escapeXml } from '../../../src/core/chain/render';
import { groupEvents, renderGroup } from '../../../src/core/session/group';
import { InputError } from '../../../src/core/errors';
import { defaultPolicy } from '../../../src/core/policy';
import { compactSession, editSummary, previewCompaction, type CompactionInput } from '../../../src/core/session/compaction';
import {
  activeSummary, appendSummaryRecord, compactRecord, editRecord, liveSummaries, parseSummaryStore, rangeOf, readSummaryStore, summaryStorePath, undoRecord,
  type SummaryRecord,
} from '../../../src/core/session/summary-store';
import { appendSessionEvents, parseSession, readSessionFile } from '../../../src/core/session/file';
import { counter } from '../helpers';
import { EXAMPLE_PATHS, exampleEvents, faithfulSummary, jsonl, SESSION_SOURCE, tempWorkspace } from './fixtures';

const T1 = new Date('2026-11-12T10:20:00Z');
const T2 = new Date('2026-11-12T10:21:00Z');
const T3 = new Date('2026-11-12T10:22:00Z');

describe('session store (JSON lines)', () => {
  it('reports a corrupt or invalid line with its line number, skips it, and keeps the rest', () => {
    const text = [
      '{"id":"e1","type":"user","text":"hello"}',
      'not json',
      '',
      '{"id":"e2","type":"tool_result","text":"x"}',
      '{"id":"e3","type":"note","text":"x"}',
      '{"id":"e4","type":"assistant","text":"hi"}',
    ].join('\n');
    const { events, warnings } = parseSession(text, SESSION_SOURCE);
    assert.deepEqual(events.map((e) => [e.id, e.line]), [['e1', 1], ['e4', 6]]);
    assert.deepEqual(warnings, [
      { source: SESSION_SOURCE, line: 2, message: `corrupt session line skipped: Unexpected token 'o', "not json" is not valid JSON` },
      { source: SESSION_SOURCE, line: 4, message: 'invalid session event skipped: a tool_result needs a "call_id"' },
      { source: SESSION_SOURCE, line: 5, message: 'invalid session event skipped: "type" must be one of user, assistant, tool_call, tool_result' },
    ]);
  });

  it('appends without rewriting what is stored', () => {
    const root = tempWorkspace({ [SESSION_SOURCE]: jsonl([{ id: 'e1', type: 'user', text: 'first' }]) });
    try {
      const file = path.join(root, SESSION_SOURCE);
      const before = fs.readFileSync(file, 'utf8');
      appendSessionEvents(file, [{ id: 'e2', type: 'assistant', text: 'second' }]);
      const after = fs.readFileSync(file, 'utf8');
      assert.ok(after.startsWith(before));
      assert.deepEqual(readSessionFile(file, SESSION_SOURCE).events.map((e) => e.id), ['e1', 'e2']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('summary store', () => {
  const covers = rangeOf(exampleEvents().slice(0, 16));

  it('lives beside the session file', () => {
    assert.equal(summaryStorePath('/w/.context/session.jsonl'), '/w/.context/session.summaries.jsonl');
    assert.equal(summaryStorePath('/w/run-7'), '/w/run-7.summaries.jsonl');
  });

  it('compact, edit and undo are appended records; the top of the live stack is active', () => {
    const records: SummaryRecord[] = [];
    records.push(compactRecord(records, faithfulSummary(), 'extractive', covers, T1));
    const edited = { ...faithfulSummary(), next_step: ['Read ADR-012 first.'] };
    records.push(editRecord(records, edited, T2, 'store'));
    assert.deepEqual(records.map((r) => [r.id, r.action]), [['s1', 'compact'], ['s2', 'edit']]);
    assert.equal(activeSummary(records)?.summary.next_step[0], 'Read ADR-012 first.');
    assert.deepEqual(records[1], { id: 's2', action: 'edit', created_at: '2026-11-12T10:21:00.000Z', producer: 'edit', covers, summary: edited, based_on: 's1' });
    records.push(undoRecord(records, T3, 'store'));
    assert.deepEqual(records[2], { id: 's3', action: 'undo', created_at: '2026-11-12T10:22:00.000Z', target: 's2' });
    assert.equal(activeSummary(records)?.id, 's1');
    records.push(undoRecord(records, T3, 'store'));
    assert.equal(activeSummary(records), undefined);
    assert.deepEqual(liveSummaries(records), []);
    assert.throws(() => undoRecord(records, T3, '.context/session.summaries.jsonl'), (e: unknown) => e instanceof InputError && e.toString() === '.context/session.summaries.jsonl: nothing to undo: no active summary');
    assert.throws(() => editRecord(records, edited, T3, 'store'), /nothing to edit: no active summary \(run `ctxctl session compact` first\)/);
  });

  it('parses the store, reporting a bad record by line and keeping the others', () => {
    const good = compactRecord([], faithfulSummary(), 'extractive', covers, T1);
    const text = [JSON.stringify(good), '{"id":"s2"', JSON.stringify({ ...good, id: 's3', summary: { objective: 'x' } }), JSON.stringify({ id: 's4', action: 'undo', created_at: 'x', target: 's1' })].join('\n');
    const { records, warnings } = parseSummaryStore(text, 'store.jsonl');
    assert.deepEqual(records.map((r) => r.id), ['s1', 's4']);
    assert.deepEqual(warnings, [
      { source: 'store.jsonl', line: 2, message: "corrupt summary record skipped: Expected ',' or '}' after property value in JSON at position 10" },
      { source: 'store.jsonl', line: 3, message: 'invalid summary record skipped: summary: missing field "established_facts"' },
    ]);
  });

  it('round-trips through the file, append-only', () => {
    const root = tempWorkspace({});
    try {
      const file = path.join(root, 'session.summaries.jsonl');
      const record = compactRecord([], faithfulSummary(), 'extractive', covers, T1);
      appendSummaryRecord(file, record);
      appendSummaryRecord(file, undoRecord([record], T2, 'store'));
      assert.deepEqual(readSummaryStore(file, 'store').records.map((r) => r.id), ['s1', 's2']);
      assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 3);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('preview, compact, edit (core functions for the panel and the CLI)', () => {
  const input = (records: SummaryRecord[] = []): CompactionInput => ({
    events: exampleEvents(), source: SESSION_SOURCE, policy: defaultPolicy(), records, constraints: [], knownSources: EXAMPLE_PATHS, tokenizer: counter,
  });

  it('previews what the next call folds: events, tokens before and after, the summary and its verdict', () => {
    const p = previewCompaction(input());
    assert.ok(p);
    assert.deepEqual(p.folded, { range: 'e01…e16', ids: exampleEvents().slice(0, 16).map((e) => e.id), groups: 12 });
    assert.deepEqual(p.kept_raw, { range: 'e17…e24', events: 8, groups: 6 });
    assert.deepEqual(p.omitted, []);
    assert.equal(p.producer, 'extractive');
    assert.equal(p.validation.ok, true);
    const { groups } = groupEvents(exampleEvents(), SESSION_SOURCE);
    assert.equal(p.tokens_before, groups.slice(0, 12).reduce((n, g) => n + counter.count(renderGroup(g)), 0));
    assert.equal(p.tokens_after, counter.count(`<session-summary source="${SESSION_SOURCE}#summary" trust="session">\n${escapeXml(p.text)}\n</session-summary>`));
    assert.ok(p.tokens_after < p.tokens_before / 2, `${p.tokens_after} < ${p.tokens_before} / 2`);
    assert.deepEqual(p.history, []);
  });

  it('compacts (fallback), then an edit replaces it, then undo restores it', () => {
    const { record, preview } = compactSession(input(), T1);
    assert.deepEqual([record.id, record.action, record.producer, record.covers.from, record.covers.to, record.covers.events, record.created_at], ['s1', 'compact', 'extractive', 'e01', 'e16', 16, '2026-11-12T10:20:00.000Z']);
    assert.equal(preview.label, 'extractive fallback (no model configured): sentences copied from the events, not rewritten (stored summary s1)');
    const edit = editSummary(input([record]), faithfulSummary(), T2, 'store');
    assert.equal(edit.based_on, 's1');
    const after = previewCompaction(input([record, edit]));
    assert.equal(after?.label, 'edited by the user (stored summary s2)');
    assert.deepEqual(after?.history.map((h) => [h.id, h.live, h.active]), [['s1', true, false], ['s2', true, true]]);
    const undo = undoRecord([record, edit], T3, 'store');
    assert.equal(previewCompaction(input([record, edit, undo]))?.summary_id, 's1');
  });

  it('refuses to store an edit that validation rejects, with the reasons', () => {
    const { record } = compactSession(input(), T1);
    const bad = { ...faithfulSummary(), established_facts: ['The mobile client may still use v1 of the API.'] };
    assert.throws(
      () => editSummary(input([record]), bad, T2, '.context/session.summaries.jsonl'),
      (e: unknown) => e instanceof InputError && e.toString() === '.context/session.summaries.jsonl: edited summary rejected, not stored: established_facts[0] is worded as a hypothesis or question: "The mobile client may still use v1 of the API."',
    );
  });

  it('stores a model answer only when it passes validation', () => {
    const ok = compactSession(input(), T1, { summary: faithfulSummary(), producer: 'model:gpt-4o' });
    assert.equal(ok.record.producer, 'model:gpt-4o');
    assert.deepEqual(ok.record.summary, faithfulSummary());
    assert.throws(() => compactSession(input(), T1, { summary: { objective: 'x' }, producer: 'model:gpt-4o' }), /summary rejected, not stored: schema: missing field "established_facts"/);
  });

  it('has nothing to fold when every group is replayed raw', () => {
    const few = { ...input(), events: exampleEvents().slice(0, 4) };
    assert.equal(previewCompaction(few), undefined);
    assert.throws(() => compactSession(few, T1), /nothing to compact: the 3 group\(s\) stored are all replayed raw/);
  });
});
