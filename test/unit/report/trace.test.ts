import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manifest } from '../../../src/core/report/manifest';
import { MAX_REJECTED_ROWS, rejectedGroups, renderShortTrace, renderTrace, SHOWN_REJECTED_ROWS } from '../../../src/core/report/trace';
import { emptyDecisions, type Decision } from '../../../src/core/types';

const manifest = (rejected: Decision[]): Manifest => ({
  ...emptyDecisions(),
  rejected,
  version: 1,
  created_at: '2026-12-02T00:00:00.000Z',
  task: { source: 'task.md' },
  model: 'gpt-4o',
  encoding: 'o200k_base',
  encoding_approximate: false,
  shape: 'openai',
  policy: 'defaults',
  request_bytes: 100,
  budget: { window: 1000, output_reserve: 0, margin: 0, max_input: 1000, mandatory: 10, final: 10, overhead: 10, free: 990 },
  zones: { protected: 0 },
  session: { stored: 0, kept_raw: 0, compacted: 0, omitted: 0, store: { path: '.context/session.jsonl' } } as Manifest['session'],
  redactions: [],
});

const notes = (n: number): Decision[] =>
  Array.from({ length: n }, (_, i) => ({
    source: `notes/note-${String(i).padStart(4, '0')}.md`,
    kind: 'document',
    reason: i % 3 === 0 ? `not in this request: below the relevance threshold 30% (mentions retry (rank ${i + 2} of ${n + 1}, score 0.1))` : `not in this request: below the index threshold 12% (mentions payment (rank ${i + 2} of ${n + 1}, score 0))`,
  }));

describe('the trace (report/trace.ts)', () => {
  it('the short trace is the whole trace\'s budget and final request, and counts the rows of the other sections', () => {
    const m = manifest(notes(3));
    const whole = renderTrace(m);
    const sections = whole.trimEnd().split('\n\n');
    assert.deepEqual(sections.map((x) => x.split('\n')[0]), ['MODEL REQUEST BUDGET', 'TOOL OUTPUT', 'SESSION', 'DOCUMENTS', 'FINAL REQUEST']);
    const short = renderShortTrace(m);
    assert.equal(short.text, `${sections[0]}\n\n${sections[4]}\n`);
    // TOOL OUTPUT "(none)", four SESSION rows, three REJECTED rows.
    assert.equal(short.left, 1 + 4 + 3);
  });


  it(`lists up to ${MAX_REJECTED_ROWS} rejected files one by one`, () => {
    const trace = renderTrace(manifest(notes(MAX_REJECTED_ROWS)));
    assert.equal(trace.split('\n').filter((l) => / REJECTED /.test(l)).length, MAX_REJECTED_ROWS);
    assert.ok(trace.includes(`  notes/note-0499.md${' '.repeat(26)} REJECTED  not in this request: below the index threshold 12% (mentions payment (rank 501 of 501, score 0))\n`));
    assert.ok(!trace.includes('more REJECTED'));
  });

  it(`past ${MAX_REJECTED_ROWS}, lists the first ${SHOWN_REJECTED_ROWS} and counts the rest by reason, pointing at the manifest`, () => {
    const all = notes(1000);
    const trace = renderTrace(manifest(all));
    const lines = trace.split('\n');
    assert.equal(lines.filter((l) => l.includes(" REJECTED  ")).length, SHOWN_REJECTED_ROWS);
    assert.ok(lines.some((l) => l.startsWith('  notes/note-0199.md ')));
    assert.ok(!lines.some((l) => l.startsWith('  notes/note-0200.md ')));
    const at = lines.indexOf(`  ${'notes/note-0199.md'.padEnd(44)} REJECTED  not in this request: below the index threshold 12% (mentions payment (rank 201 of 1001, score 0))`);
    assert.ok(at > 0);
    assert.deepEqual(lines.slice(at + 1, at + 4), [
      // 800 left: 200..999, of which the multiples of 3 (201, 204, … 999) are 267
      '  … 533 more REJECTED: not in this request: below the index threshold 12%',
      '  … 267 more REJECTED: not in this request: below the relevance threshold 30%',
      '  (every rejected file and its reason is in the manifest: --json or --out)',
    ]);
  });

  it('groups reasons up to their first parenthesis, in order of first appearance', () => {
    assert.deepEqual(rejectedGroups([{ reason: 'b (1)' }, { reason: 'a' }, { reason: 'b (2)' }, { reason: 'a' }]), [{ reason: 'b', count: 2 }, { reason: 'a', count: 2 }]);
    assert.deepEqual(rejectedGroups([]), []);
    assert.deepEqual(rejectedGroups([{ reason: 'c (1) (2)' }, { reason: ' (x)' }, { reason: 'c(3)' }, { reason: 'c' }]), [{ reason: 'c', count: 2 }, { reason: '', count: 1 }, { reason: 'c(3)', count: 1 }]);
  });
});
